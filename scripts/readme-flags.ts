/**
 * Writes the README's flag table from the flag specs (src/core/config/flagTable.ts), between
 * `<!-- flags:start -->` and `<!-- flags:end -->`, formatted as the repository's Prettier does.
 * Run: npm run readme-flags
 */
import fs from 'node:fs';
import {fileURLToPath} from 'node:url';
import prettier from 'prettier';
import {withFlagTable} from '../src/core/config/flagTable.js';

const readme = fileURLToPath(new URL('../README.md', import.meta.url));
const options = (await prettier.resolveConfig(readme)) ?? {};
const text = await prettier.format(withFlagTable(fs.readFileSync(readme, 'utf8')), {
  ...options,
  filepath: readme,
});
fs.writeFileSync(readme, text);
process.stdout.write(`Wrote the flag table into ${readme}.\n`);
