// Writes the licenses of every package bundled into an output (from esbuild's metafile): the
// bundle redistributes their code, and most of their licenses ask for the notice to travel with it.
import fs from 'node:fs';
import path from 'node:path';

/** The package folder of a bundled input, e.g. node_modules/@scope/name or …/node_modules/x. */
function packageDirOf(input) {
  const parts = input.split(/[/\\]/);
  const last = parts.lastIndexOf('node_modules');
  if (last < 0 || last + 1 >= parts.length) {
    return undefined;
  }
  const length = parts[last + 1].startsWith('@') ? last + 3 : last + 2;
  return parts.slice(0, length).join('/');
}

function licenseText(dir) {
  const name = fs
    .readdirSync(dir)
    .find(file => /^(licen[cs]e|copying|notice)(\.(md|txt))?$/i.test(file));
  return name === undefined ? undefined : fs.readFileSync(path.join(dir, name), 'utf8').trim();
}

/** The notices text for bundled files (paths relative to `root`, or absolute). */
export function thirdPartyNotices(root, inputs) {
  const dirs = new Set();
  for (const input of inputs) {
    const dir = packageDirOf(path.isAbsolute(input) ? path.relative(root, input) : input);
    if (dir !== undefined) {
      dirs.add(dir);
    }
  }
  const packages = new Map();
  for (const dir of dirs) {
    const manifest = JSON.parse(fs.readFileSync(path.join(root, dir, 'package.json'), 'utf8'));
    const license =
      typeof manifest.license === 'string' ? manifest.license : (manifest.license?.type ?? '?');
    packages.set(`${manifest.name}@${manifest.version}`, {
      license,
      text: licenseText(path.join(root, dir)),
    });
  }
  const sections = [...packages.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(
      ([id, {license, text}]) =>
        `## ${id}\n\nLicense: ${license}\n\n${text === undefined ? '(no license file in the package)' : '```\n' + text + '\n```'}\n`,
    );
  return `# Third-party notices\n\nThe files in this folder bundle the following packages.\n\n${sections.join('\n')}`;
}

/** Writes the notices for an esbuild build next to its output. */
export function writeThirdPartyNotices(root, metafile, outFile) {
  fs.writeFileSync(outFile, thirdPartyNotices(root, Object.keys(metafile.inputs)));
}
