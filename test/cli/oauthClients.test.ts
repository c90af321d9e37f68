/**
 * What a person sees when a real MCP client meets this server with a wrong or missing token.
 * mcp-remote (the Claude Desktop bridge) and the MCP Inspector CLI answer a 401 with OAuth
 * discovery and client registration, and print only the reply that failed: every one of those
 * replies must say that this server takes a bearer token, how to send it and where it is.
 * The clients are the pinned npm packages, run as processes against the server on 127.0.0.1.
 *
 * Tests: src/core/http/security.ts, src/core/http/HttpServer.ts
 */
import {spawn} from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {z} from 'zod';
import {ROOT} from '../helpers/engine.js';
import {startServerProcess, type ServerProcess} from '../helpers/serverProcess.js';

const WRONG = 'wrong-token-0123456789abcdef';
/** Generous: each client starts, probes four URLs and exits, on a machine that may be busy. */
const CLIENT_EXIT_MS = 45_000;

const binSchema = z.object({bin: z.record(z.string(), z.string())});

/** A package's own bin script, as npx would run it. */
function binOf(pkg: string, name: string): string {
  const dir = path.join(ROOT, 'node_modules', pkg);
  const manifest = binSchema.parse(
    JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')),
  );
  const bin = manifest.bin[name];
  if (bin === undefined) {
    throw new Error(`${pkg} has no bin ${name}`);
  }
  return path.join(dir, bin);
}

const MCP_REMOTE = binOf('mcp-remote', 'mcp-remote');
const INSPECTOR = binOf('@modelcontextprotocol/inspector', 'mcp-inspector');

/** The clients' own homes. */
let dir: string;
let ready: ServerProcess;
let tokenFile: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mbi-oauth-'));
  ready = await startServerProcess({flags: ['--no-record']});
  tokenFile = path.join(ready.configDir, 'token');
});

afterAll(async () => {
  await ready.stop('SIGKILL');
  fs.rmSync(dir, {recursive: true, force: true});
});

/** The one line every OAuth probe gets back, with this server's real token file. */
function probeHelp(): string {
  return `A 401 from /mcp means the bearer token was missing or wrong. ${bearerHelp()}`;
}

function bearerHelp(): string {
  return `This server uses a bearer token, not OAuth: send the header 'Authorization: Bearer <token>' with the token in ${tokenFile}. OAuth discovery and client registration are not used.`;
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a client to its end (it exits by itself once the connection failed). */
function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {env: {...process.env, ...env}, stdio: 'pipe'});
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${path.basename(command)} did not exit:\n${stdout}\n${stderr}`));
    }, CLIENT_EXIT_MS);
    child.on('error', reject);
    child.on('exit', code => {
      clearTimeout(timer);
      resolve({code, stdout, stderr});
    });
  });
}

function clientEnv(name: string): NodeJS.ProcessEnv {
  const home = path.join(dir, name);
  fs.mkdirSync(home, {recursive: true});
  // Each client keeps its OAuth state under its own folder, never the user's.
  return {HOME: home, MCP_REMOTE_CONFIG_DIR: home, MCP_INSPECTOR_SECRET_STORE: 'memory'};
}

describe('mcp-remote (the Claude Desktop bridge in the README)', () => {
  for (const [label, header] of [
    ['a wrong token', ['--header', `Authorization: Bearer ${WRONG}`]],
    ['no token', []],
  ] as const) {
    it(`with ${label}, prints the server's one line about the bearer token`, async () => {
      const result = await run(
        process.execPath,
        [MCP_REMOTE, ready.mcpUrl, '--transport', 'http-only', ...header],
        clientEnv(`mcp-remote-${header.length}`),
      );
      expect(result.code).not.toBe(0);
      const body = JSON.stringify({error: 'not_found', error_description: probeHelp()});
      expect(result.stderr).toContain(
        `Fatal error: RegistrationRejectedError: Dynamic Client Registration rejected (HTTP 404): ${body}`,
      );
      expect(result.stderr + result.stdout).not.toContain(ready.token);
    });
  }
});

const inspectorOutput = z.object({error: z.object({code: z.string(), message: z.string()})});

/** The Inspector CLI's one JSON line that says why it failed (stderr without a terminal). */
function inspectorError(output: string): z.infer<typeof inspectorOutput>['error'] {
  const line = output.split(/\r?\n/).find(candidate => candidate.startsWith('{"error"'));
  if (line === undefined) {
    throw new Error(`No error line in:\n${output}`);
  }
  return inspectorOutput.parse(JSON.parse(line)).error;
}

describe('the MCP Inspector CLI', () => {
  const base = (): string[] => [
    INSPECTOR,
    '--cli',
    ready.mcpUrl,
    '--transport',
    'http',
    '--method',
    'tools/list',
  ];

  it('in CI (--stored-auth-only), shows the 401 body for a wrong and for a missing token', async () => {
    for (const [header, given] of [
      [['--header', `Authorization: Bearer ${WRONG}`], 'wrong token'],
      [[], 'no Authorization header'],
    ] as const) {
      const result = await run(
        process.execPath,
        [...base(), '--stored-auth-only', ...header],
        clientEnv(`inspector-ci-${header.length}`),
      );
      expect(result.code).not.toBe(0);
      const error = inspectorError(result.stderr);
      const body = JSON.stringify({
        error: 'invalid_token',
        error_description: `Unauthorized: ${given}. ${bearerHelp()}`,
      });
      expect(error).toEqual({code: 'auth_required', message: `Error POSTing to endpoint: ${body}`});
      expect(result.stderr + result.stdout).not.toContain(ready.token);
    }
  });

  it('in a terminal, where it tries OAuth, shows the registration reply', async () => {
    const command = [...base(), '--header', `Authorization: Bearer ${WRONG}`]
      .map(part => `'${part}'`)
      .join(' ');
    // `script` gives the client a real pseudo-terminal, as a person running it has.
    const result = await run(
      'script',
      ['-qfec', `'${process.execPath}' ${command}`, '/dev/null'],
      clientEnv('inspector-tty'),
    );
    expect(result.code).not.toBe(0);
    const body = JSON.stringify({error: 'not_found', error_description: probeHelp()});
    expect(inspectorError(result.stdout)).toEqual({
      code: 'error',
      message: `Dynamic Client Registration rejected (HTTP 404): ${body}`,
    });
    expect(result.stdout).not.toContain(ready.token);
  });
});
