/**
 * Find the test for a file: every test file either sits at the mirror path of a source file
 * (`test/X/name.test.ts` for `src/X/name.ts`) or names the files it tests in a `Tests:` line of its
 * opening doc comment, every one of which exists. Pure: it reads files only.
 *
 * Tests: test/README.md
 */
import fs from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {describe, expect, it} from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TEST_FILE = /\.test\.tsx?$/;
const SOURCE_EXTENSIONS = ['.ts', '.tsx'];

function testFiles(folder: string): string[] {
  return fs.readdirSync(path.join(ROOT, folder), {withFileTypes: true}).flatMap(entry => {
    const relative = path.posix.join(folder, entry.name);
    if (entry.isDirectory()) {
      return entry.name === 'fixtures' || entry.name === 'node_modules' ? [] : testFiles(relative);
    }
    return TEST_FILE.test(entry.name) ? [relative] : [];
  });
}

/** `test/a/b.test.ts` → `src/a/b.ts` or `src/a/b.tsx`, whichever exists. */
function mirrorSource(testFile: string): string | undefined {
  const stem = path.posix.join('src', testFile.slice('test/'.length).replace(TEST_FILE, ''));
  return SOURCE_EXTENSIONS.map(extension => stem + extension).find(candidate =>
    fs.existsSync(path.join(ROOT, candidate)),
  );
}

/**
 * The paths of the `Tests:` line in the file's opening doc comment; a line that ends in a comma
 * goes on in the next comment line. Undefined when there is no such line.
 */
function testedPaths(text: string): string[] | undefined {
  const opening = /^\/\*\*[\s\S]*?\*\//.exec(text);
  if (!opening) {
    return undefined;
  }
  const lines = opening[0].split('\n').map(line => line.replace(/^\s*\*?\s?/, '').trim());
  const start = lines.findIndex(line => line.startsWith('Tests:'));
  if (start < 0) {
    return undefined;
  }
  let list = '';
  for (const line of lines.slice(start)) {
    list += ' ' + (list === '' ? line.slice('Tests:'.length) : line);
    if (!list.trimEnd().endsWith(',')) {
      break;
    }
  }
  return list
    .split(',')
    .map(entry => entry.trim())
    .filter(entry => entry !== '');
}

/** What is wrong with a test file's place, or undefined when it is findable. */
function layoutProblem(testFile: string): string | undefined {
  if (mirrorSource(testFile)) {
    return undefined;
  }
  const paths = testedPaths(fs.readFileSync(path.join(ROOT, testFile), 'utf8'));
  if (!paths || paths.length === 0) {
    return `${testFile}: at no mirror path of a source file and without a "Tests:" line`;
  }
  const missing = paths.filter(entry => !fs.existsSync(path.join(ROOT, entry)));
  return missing.length > 0
    ? `${testFile}: "Tests:" names missing ${missing.join(', ')}`
    : undefined;
}

describe('test layout', () => {
  it('reads a Tests: line over several comment lines', () => {
    const text = '/**\n * What it does.\n *\n * Tests: src/a.ts,\n *   src/b/c.ts\n */\nimport x;';
    expect(testedPaths(text)).toEqual(['src/a.ts', 'src/b/c.ts']);
    expect(testedPaths('/** Only words. */\nimport x;')).toBeUndefined();
    expect(testedPaths('import x;\n/**\n * Tests: src/a.ts\n */')).toBeUndefined();
  });

  it('finds the source file of every test file', () => {
    const files = testFiles('test');
    expect(files.length).toBeGreaterThan(100);
    expect(files).toContain('test/layout.test.ts');
    const problems = files.flatMap(file => layoutProblem(file) ?? []);
    expect(problems).toEqual([]);
  });

  it('names the pipeline, page registry, tree splice and inspector peer in some test', () => {
    const named = new Set(
      testFiles('test').flatMap(file => {
        const tested = testedPaths(fs.readFileSync(path.join(ROOT, file), 'utf8')) ?? [];
        const mirror = mirrorSource(file);
        return mirror ? [mirror, ...tested] : tested;
      }),
    );
    for (const source of [
      'src/core/mcp/ToolRunner.ts',
      'src/core/browser/pages/PageRegistry.ts',
      'src/core/browser/snapshot/spliceTree.ts',
      'src/core/inspector/InspectorPeer.ts',
    ]) {
      expect(named, source).toContain(source);
    }
  });
});
