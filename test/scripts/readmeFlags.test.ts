/**
 * The README against the CLI it documents: every flag the README names for mcp-browser-inspector
 * (server, replay, export, list) is one `--help` lists, and every default the README states is the
 * one `--help` states — so the front door cannot drift from the program again.
 *
 * Tests: scripts/readme-flags.ts, src/core/config/flagTable.ts
 */
import {execFileSync} from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import {describe, expect, it} from 'vitest';
import {CLI} from '../helpers/cliRun.js';
import {ROOT} from '../helpers/engine.js';
import {betweenFlagMarkers, flagTableRows, tableCells} from '../../src/core/config/flagTable.js';

const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');

/** Flags of other programs the README quotes (client CLIs, npm, Chromium, Electron, benches). */
const OTHER_PROGRAMS = new Set([
  'yes', // npx
  'silent', // npm pack
  'scope', // claude mcp add
  'transport', // claude / gemini mcp add, mcp-remote
  'header', // claude / gemini mcp add, mcp-remote
  'stored-auth-only', // MCP Inspector CLI
  'inspect', // an Electron fuse
  'app', // @electron/fuses read
  'switch', // --chromeArg=--switch: a Chromium switch
  'disable-extensions', // Chromium
  'enable-unsafe-extension-debugging', // Chromium
  'remote-debugging-port', // Chromium (replay's allowlist, --browserUrl)
  'window-size', // Chromium (replay's allowlist, --browserUrl)
  'lang', // Chromium (replay's allowlist, --browserUrl)
  'accept-lang', // Chromium (replay's allowlist, --browserUrl)
  'force-device-scale-factor', // Chromium (replay's allowlist, --browserUrl)
  'user-agent', // Chromium (replay's allowlist, --browserUrl)
  'force-color-profile', // Chromium (replay's allowlist, --browserUrl)
  'font-render-hinting', // Chromium (replay's allowlist, --browserUrl)
  'hide-scrollbars', // Chromium (replay's allowlist, --browserUrl)
  'mute-audio', // Chromium (replay's allowlist, --browserUrl)
  'force-dark-mode', // Chromium (replay's allowlist, --browserUrl)
  'force-prefers-reduced-motion', // Chromium (replay's allowlist, --browserUrl)
  'enable-features', // Chromium (replay's allowlist, --browserUrl)
  'disable-features', // Chromium (replay's allowlist, --browserUrl)
  'rounds', // bench/whole-tasks.ts
  'diffs', // bench/tasks.ts
  'runs', // bench/tasks.ts
]);

function help(args: string[]): string {
  return execFileSync(process.execPath, [CLI, ...args, '--help'], {
    encoding: 'utf8',
    timeout: 20_000,
  });
}

function flagsOf(text: string): Set<string> {
  return new Set([...text.matchAll(/^\s+--([A-Za-z][\w-]*)/gm)].map(match => match[1] ?? ''));
}

describe('README against --help', () => {
  const server = help([]);
  const listed = new Set([
    ...flagsOf(server),
    ...['replay', 'export', 'list'].flatMap(command => [...flagsOf(help([command]))]),
  ]);

  it('names only flags the CLI has', () => {
    const named = [...README.matchAll(/(?<![\w-])--(?:no-)?([A-Za-z][\w-]*)/g)].map(
      match => match[1] ?? '',
    );
    expect(named.length).toBeGreaterThan(50);
    const unknown = named.filter(
      flag =>
        !listed.has(flag) &&
        !OTHER_PROGRAMS.has(flag) &&
        // `--category<Name>`: one per category, all listed by --help.
        !(flag === 'category' && listed.has('categoryPwa')) &&
        // Aliases, which --help names beside their flag.
        !server.includes(`--${flag}`),
    );
    expect([...new Set(unknown)]).toEqual([]);
  });

  it('states the defaults --help states', () => {
    const stated = [...README.matchAll(/`--([A-Za-z]+)[^`]*`[^(`]{0,40}\(default ([\w.]+)/g)];
    expect(stated.length).toBeGreaterThanOrEqual(3);
    for (const [, flag, value] of stated) {
      const line = server.split('\n').find(text => text.trimStart().startsWith(`--${flag} `));
      expect(line, flag).toBeDefined();
      expect(line, flag).toMatch(new RegExp(`default ${value ?? ''}\\b`));
    }
  });
});

describe('README flag table against the flag specs', () => {
  it('is the table the specs make (run `npm run readme-flags` to write it)', () => {
    const table = betweenFlagMarkers(README);
    expect(table, 'README.md has <!-- flags:start --> and <!-- flags:end -->').toBeDefined();
    const rows = flagTableRows();
    expect(rows.length).toBeGreaterThan(40);
    expect(
      tableCells(table ?? ''),
      'The README flag table differs from the flag specs: run `npm run readme-flags`.',
    ).toEqual(rows);
  });
});
