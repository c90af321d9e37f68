/**
 * The README as users follow it: install with npx (or the packed tarball before a release) first,
 * the user-scope flags of the client CLIs, one server name (the Connection panel's), and no link
 * out of the repository.
 *
 * Tests: README.md
 */
import fs from 'node:fs';
import path from 'node:path';
import {describe, expect, it} from 'vitest';
import {SERVER_NAME} from '../../src/renderer/src/features/connection/clientSetup.js';
import {ROOT} from '../helpers/engine.js';

const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  engines: {node: string};
};

/** Shell commands of the README, continuation lines joined. */
function commands(prefix: string): string[] {
  return README.replace(/\\\n\s*/g, ' ')
    .split('\n')
    .map(line => line.trim())
    .filter(line => line.startsWith(prefix));
}

describe('README', () => {
  it('starts with what works before the release: the clone, the packed tarball installed globally', () => {
    const firstBlock = /```sh\n([\s\S]*?)```/.exec(README)?.[1] ?? '';
    const lines = firstBlock.split('\n').map(line => line.split('  #')[0]?.trim());
    expect(lines.slice(0, 3)).toEqual([
      'npm ci && npm start',
      // npm pack prints only the tarball's name (prepack builds to stderr).
      'npm ci && npm install -g "./$(npm pack --silent)"',
      pkg.name,
    ]);
    // The registry forms stay, marked for after the release.
    expect(README).toMatch(
      /After the release \(not yet[^)]*\): `npx -y mcp-browser-inspector@latest`/,
    );
    expect(README.indexOf(firstBlock)).toBeLessThan(README.indexOf('## From a clone'));
  });

  it('adds the server for the user scope in Claude Code and Gemini CLI, under one name', () => {
    const claude = commands('claude mcp add');
    const gemini = commands('gemini mcp add');
    expect(claude.length).toBeGreaterThanOrEqual(2);
    expect(gemini.length).toBeGreaterThanOrEqual(2);
    for (const command of claude) {
      expect(command).toContain('--scope user');
      expect(command.split(' ')).toContain(SERVER_NAME);
    }
    for (const command of gemini) {
      expect(command).toContain('-s user');
      expect(command.split(' ')).toContain(SERVER_NAME);
    }
  });

  it('names the server as the Connection panel does in every JSON config', () => {
    const blocks = [...README.matchAll(/```json\n([\s\S]*?)```/g)].map(match => match[1] ?? '');
    expect(blocks.length).toBeGreaterThanOrEqual(3);
    for (const block of blocks) {
      const config = JSON.parse(block) as {
        mcpServers?: Record<string, unknown>;
        servers?: Record<string, unknown>;
      };
      expect(Object.keys(config.mcpServers ?? config.servers ?? {})).toEqual([SERVER_NAME]);
    }
  });

  it('states the Node.js version the package runs on, as package.json does', () => {
    expect(pkg.engines.node).toBe('>=20.19');
    expect(README).toContain('Node.js ≥ 20.19');
  });

  it('links only to files inside the repository, and they exist', () => {
    const links = [...README.matchAll(/\]\(([^)\s]+)\)/g)].map(match => match[1] ?? '');
    const local = links.filter(link => !/^[a-z]+:/i.test(link) && !link.startsWith('#'));
    expect(local.length).toBeGreaterThan(0);
    for (const link of local) {
      const target = path.resolve(ROOT, link.split('#')[0] ?? '');
      expect(target.startsWith(ROOT + path.sep), link).toBe(true);
      expect(fs.existsSync(target), link).toBe(true);
    }
    expect(README).not.toMatch(/\.\.\/shared|DESIGN\.md/);
  });
});
