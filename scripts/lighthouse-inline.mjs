// Makes Lighthouse bundleable, the way Lighthouse's own bundles (DevTools, chrome-devtools-mcp)
// are made: its sources read files next to themselves at load time (locales, the axe-core source,
// the report template, directory listings of its audits) and load audits by path at run time.
// Bundled, those files are not there, so this rewrites Lighthouse's own modules as they are
// bundled:
//   - fs.readFileSync / fs.readdirSync whose path is known at build time → the file's content;
//   - `import.meta` → where the module WOULD be, under a folder next to the bundle, so Lighthouse's
//     message ids (relative to its root) stay right and nothing real is ever read from there;
//   - the table of dynamically loaded audits and gatherers → static imports of all of them;
//   - "am I bundled?" checks → yes; flow-report assets and all locales but en-US → left out
//     (this server never builds flow reports or sets a locale).
// The build fails when a file this must rewrite no longer looks as expected, so a Lighthouse
// upgrade cannot silently ship a bundle that reads missing files (test/scripts/desktopBundle and
// the pack test run real audits from the bundles).
import fs from 'node:fs';
import {createRequire} from 'node:module';
import path from 'node:path';
import {pathToFileURL} from 'node:url';

const require = createRequire(import.meta.url);

/** Locales kept in the bundle: the server runs Lighthouse in its default locale only. */
export const KEPT_LOCALES = ['en-US'];

/** Where `import.meta.url` of a Lighthouse module points in the bundle (never read). */
const VIRTUAL_ROOT = './lighthouse-virtual/';

/** Files whose static reads must all be inlined (a missed one would fail at run time). */
const MUST_INLINE = {
  'core/runner.js': 13,
  'core/lib/axe.js': 1,
  'core/gather/gatherers/stacks.js': 1,
  'core/lib/legacy-javascript/legacy-javascript.js': 2,
  'shared/root.js': 1,
  'shared/localization/format.js': 1,
  'report/generator/report-assets.js': 2,
};

/** Whole modules replaced: never needed by this server. */
const REPLACED_MODULES = {
  'report/generator/flow-report-assets.js': 'export const flowReportAssets = {};\n',
};

export function lighthouseRoot() {
  return path.dirname(require.resolve('lighthouse/package.json'));
}

/** Index of the parenthesis closing the one at `open`, skipping strings and template literals. */
function closingParen(code, open) {
  let depth = 0;
  for (let i = open; i < code.length; i++) {
    const char = code[i];
    if (char === "'" || char === '"' || char === '`') {
      i = stringEnd(code, i);
    } else if (char === '(') {
      depth++;
    } else if (char === ')') {
      depth--;
      if (depth === 0) {
        return i;
      }
    }
  }
  throw new Error('unbalanced parentheses');
}

function stringEnd(code, start) {
  const quote = code[start];
  for (let i = start + 1; i < code.length; i++) {
    if (code[i] === '\\') {
      i++;
    } else if (quote === '`' && code[i] === '$' && code[i + 1] === '{') {
      i = closingBrace(code, i + 1);
    } else if (code[i] === quote) {
      return i;
    }
  }
  throw new Error('unterminated string');
}

function closingBrace(code, open) {
  let depth = 0;
  for (let i = open; i < code.length; i++) {
    if (code[i] === '{') {
      depth++;
    } else if (code[i] === '}' && --depth === 0) {
      return i;
    }
  }
  throw new Error('unbalanced braces');
}

/** Splits at top-level occurrences of `separator` (outside parentheses and strings). */
function splitTopLevel(expression, separator) {
  const parts = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < expression.length; i++) {
    const char = expression[i];
    if (char === "'" || char === '"' || char === '`') {
      i = stringEnd(expression, i);
    } else if (char === '(') {
      depth++;
    } else if (char === ')') {
      depth--;
    } else if (char === separator && depth === 0) {
      parts.push(expression.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(expression.slice(start));
  return parts.map(part => part.trim());
}

/**
 * Evaluates a path expression of the small grammar Lighthouse uses for its own files: string and
 * template literals, `+`, `path.join(…)`, `require.resolve('…')` and the names in `scope`. Returns
 * undefined for anything else (a path only known at run time).
 */
function evaluatePath(expression, scope) {
  const parts = splitTopLevel(expression, '+');
  if (parts.length > 1) {
    const values = parts.map(part => evaluatePath(part, scope));
    return values.includes(undefined) ? undefined : values.join('');
  }
  const text = parts[0];
  const literal = /^'([^'\\]*)'$|^"([^"\\]*)"$/.exec(text);
  if (literal) {
    return literal[1] ?? literal[2];
  }
  if (/^`[^`\\]*`$/.test(text)) {
    let unknown = false;
    const value = text.slice(1, -1).replace(/\$\{\s*(\w+)\s*\}/g, (_match, name) => {
      if (!(name in scope.names)) {
        unknown = true;
      }
      return scope.names[name] ?? '';
    });
    return unknown ? undefined : value;
  }
  if (text in scope.names) {
    return scope.names[text];
  }
  const call = /^(path\.join|require\.resolve)\(([\s\S]*)\)$/.exec(text);
  if (call) {
    const args = splitTopLevel(call[2], ',')
      .filter(arg => arg !== '')
      .map(arg => evaluatePath(arg, scope));
    if (args.includes(undefined)) {
      return undefined;
    }
    return call[1] === 'path.join' ? path.join(...args) : scope.resolve(args[0]);
  }
  return undefined;
}

/** Replaces each `fs.<method>(…)` whose arguments are known at build time; returns the count. */
function inlineCalls(code, method, scope, replace) {
  const needle = `fs.${method}(`;
  let out = '';
  let index = 0;
  let inlined = 0;
  for (;;) {
    const found = code.indexOf(needle, index);
    if (found < 0) {
      break;
    }
    const open = found + needle.length - 1;
    const close = closingParen(code, open);
    const args = splitTopLevel(code.slice(open + 1, close), ',').filter(arg => arg !== '');
    const file = evaluatePath(args[0], scope);
    const replacement = file === undefined ? undefined : replace(file, args.slice(1));
    out += code.slice(index, found) + (replacement ?? code.slice(found, close + 1));
    if (replacement !== undefined) {
      inlined++;
    }
    index = close + 1;
  }
  return {code: out + code.slice(index), inlined};
}

function localeOf(file) {
  const match = /[/\\]shared[/\\]localization[/\\]locales[/\\]([^/\\]+)\.json$/.exec(file);
  return match?.[1];
}

/** `import * as …` for every core audit and gatherer, and the table config-helpers.js looks in. */
async function bundledModulesTable(root) {
  const {Runner} = await import(pathToFileURL(path.join(root, 'core/runner.js')).href);
  const modules = [
    ...Runner.getGathererList().map(file => `../gather/gatherers/${file}`),
    ...Runner.getAuditList().map(file => `../audits/${file}`),
  ];
  const imports = modules.map((file, i) => `import * as __lhModule${i} from '${file}';`);
  const entries = modules.map(
    (file, i) => `['${file.replace(/\.js$/, '')}', Promise.resolve(__lhModule${i})]`,
  );
  return {imports: imports.join('\n'), table: `[\n${entries.join(',\n')}\n]`};
}

/** Inlines the file reads and directory listings whose paths are known at build time. */
function inlineFileReads(source, scope) {
  const reads = inlineCalls(source, 'readFileSync', scope, (target, rest) => {
    if (!/^['"]utf-?8['"]$/.test(rest[0] ?? '')) {
      return undefined;
    }
    const locale = localeOf(target);
    if (locale !== undefined && !KEPT_LOCALES.includes(locale)) {
      // JSON.parse('null'): dropped from the locale table (see rewriteForBundle).
      return "'null'";
    }
    return JSON.stringify(fs.readFileSync(target, 'utf8'));
  });
  const listings = inlineCalls(reads.code, 'readdirSync', scope, target => {
    let names = fs.readdirSync(target);
    if (/[/\\]shared[/\\]localization[/\\]locales[/\\]?$/.test(target)) {
      names = names.filter(name => KEPT_LOCALES.some(locale => name === `${locale}.json`));
    }
    return JSON.stringify(names);
  });
  return {code: listings.code, inlined: reads.inlined + listings.inlined};
}

/** The rewrites that are not file reads: locale table, audit table, "bundled?", import.meta. */
function rewriteForBundle(relative, source, table) {
  let code = source;
  if (relative === 'shared/localization/locales.js') {
    // Locales left out are null: drop them so none is offered as available.
    code = code.replace(
      /\nexport \{locales\};/,
      '\nfor (const key of Object.keys(locales)) if (!locales[key]) delete locales[key];\n$&',
    );
  }
  if (relative === 'core/config/config-helpers.js') {
    const marker = '/* BUILD_REPLACE_BUNDLED_MODULES */';
    if (!code.includes(marker)) {
      throw new Error(`lighthouse-inline: ${relative} has no ${marker} any more`);
    }
    code = `${table.imports}\n${code.replace(marker, table.table)}`;
  }
  // "Bundled?" checks resolve lighthouse-logger from the module's folder, so their answer
  // would depend on what happens to be installed around the bundle: it must be yes. (Page
  // functions then expect esbuild's keepNames wrapper calls, so the bundle must keep names.)
  code = code.replace(/require\.resolve\('lighthouse-logger'\);/g, "throw new Error('bundled');");
  return code.replace(
    /\bimport\.meta\b(?!\.dirname|\.filename)/g,
    `{url: new URL(${JSON.stringify(VIRTUAL_ROOT + relative)}, import.meta.url).href}`,
  );
}

/** Throws unless every file that must be inlined was seen and fully inlined. */
function verifyInlined(inlinedPerFile) {
  for (const [file, expected] of Object.entries(MUST_INLINE)) {
    const actual = inlinedPerFile.get(file);
    if (actual !== expected) {
      throw new Error(
        `lighthouse-inline: expected ${expected} inlined file reads in lighthouse/${file}, found ${actual ?? 'the file was not bundled'}`,
      );
    }
  }
  const locales = inlinedPerFile.get('shared/localization/locales.js');
  if (locales === undefined || locales === 0) {
    throw new Error('lighthouse-inline: lighthouse/shared/localization/locales.js not inlined');
  }
}

/**
 * Creates the transform. `applies(file)` says whether a module is Lighthouse's own (its nested
 * node_modules are ordinary dependencies); `transform(file, code)` returns the rewritten code;
 * `verify()` throws unless every file that must be inlined was.
 */
export async function createLighthouseInliner() {
  const root = lighthouseRoot();
  const table = await bundledModulesTable(root);
  const inlinedPerFile = new Map();

  const applies = file => {
    const relative = path.relative(root, file);
    return (
      !relative.startsWith('..') &&
      !path.isAbsolute(relative) &&
      !relative.split(path.sep).includes('node_modules') &&
      /\.m?js$/.test(file)
    );
  };

  const transform = (file, source) => {
    const relative = path.relative(root, file).split(path.sep).join('/');
    if (relative in REPLACED_MODULES) {
      return REPLACED_MODULES[relative];
    }
    const fileRequire = createRequire(file);
    const scope = {
      names: {moduleDir: path.dirname(file), LH_ROOT: root},
      resolve: specifier => fileRequire.resolve(specifier),
    };
    const {code, inlined} = inlineFileReads(source, scope);
    inlinedPerFile.set(relative, inlined);
    return rewriteForBundle(relative, code, table);
  };

  return {applies, transform, verify: () => verifyInlined(inlinedPerFile)};
}

const SENTRY_STUB = "throw new Error('Lighthouse error reporting is not part of this bundle.');";

/**
 * esbuild plugin: Lighthouse's own modules go through the inliner; its error-reporting library
 * (imported only when error reporting is switched on, which this server never does) is left out.
 */
export function lighthouseEsbuildPlugin(inliner) {
  return {
    name: 'lighthouse-inline',
    setup(builder) {
      builder.onResolve({filter: /^@sentry\/node$/}, () => ({
        path: 'sentry',
        namespace: 'left-out',
      }));
      builder.onLoad({filter: /.*/, namespace: 'left-out'}, () => ({
        contents: SENTRY_STUB,
        loader: 'js',
      }));
      builder.onLoad({filter: /[/\\]lighthouse[/\\].*\.m?js$/}, async args => {
        if (!inliner.applies(args.path)) {
          return undefined;
        }
        const source = await fs.promises.readFile(args.path, 'utf8');
        return {
          contents: inliner.transform(args.path, source),
          loader: 'js',
          resolveDir: path.dirname(args.path),
        };
      });
    },
  };
}
