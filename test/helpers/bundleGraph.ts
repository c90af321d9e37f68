/**
 * What a bundle's entry loads before its first line runs: the entry and every chunk it imports
 * statically, transitively (dynamic imports load later, when their code runs).
 */
import fs from 'node:fs';
import path from 'node:path';

/** Static imports and re-exports of an esbuild bundle: `… from "./x.js"` and `import "./x.js"`. */
const STATIC_IMPORT =
  /(?:^|[;}\n])\s*(?:import|export)\s*(?:[\w$]+\s*,?\s*)?(?:\{[^}]*\}|\*\s*as\s+[\w$]+)?\s*from\s*"(\.[\w@$./-]+)"|(?:^|[;}\n])\s*import\s*"(\.[\w@$./-]+)"/g;

/** The files loaded before `entry` runs: the entry and its static imports, transitively. */
export function staticallyLoadedFiles(entry: string): string[] {
  const seen = new Set<string>();
  const pending = [path.resolve(entry)];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (seen.has(file)) {
      continue;
    }
    seen.add(file);
    const code = fs.readFileSync(file, 'utf8');
    for (const match of code.matchAll(STATIC_IMPORT)) {
      pending.push(path.resolve(path.dirname(file), match[1] ?? match[2] ?? ''));
    }
  }
  return [...seen];
}

/** The bytes of JavaScript loaded before `entry` runs. */
export function staticallyLoadedBytes(entry: string): number {
  return staticallyLoadedFiles(entry).reduce((sum, file) => sum + fs.statSync(file).size, 0);
}

/** The bytes of every JavaScript file of a bundle folder. */
export function bundleBytes(dir: string): number {
  return fs
    .readdirSync(dir, {recursive: true, encoding: 'utf8'})
    .filter(name => name.endsWith('.js'))
    .reduce((sum, name) => sum + fs.statSync(path.join(dir, name)).size, 0);
}
