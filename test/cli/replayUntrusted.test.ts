/**
 * `replay` of a crafted recording, run as users run it: its header asks for command prefixes that
 * would run a script, a debugging port, another profile and extension, a proxy, another executable
 * and endpoints. Nothing of that runs or is used — no script leaves its mark — the replay names what
 * it refused, and the switches that only change what the page sees (here the user agent) are used.
 *
 * Tests: src/cli/replayCommand.ts, src/cli/replayFlags.ts, src/cli/replayChromeArgs.ts
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {runCli} from '../helpers/cliRun.js';
import {restartablePort} from '../helpers/ports.js';

let dir = '';

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mbi-replay-untrusted-'));
});

afterAll(() => {
  fs.rmSync(dir, {recursive: true, force: true});
});

/** A script that leaves `marker` behind, then runs what it was given (a prefix's job). */
function markingScript(name: string, runs: string): {script: string; marker: string} {
  const script = path.join(dir, `${name}.sh`);
  const marker = path.join(dir, `${name}.ran`);
  fs.writeFileSync(script, `#!/bin/sh\ntouch '${marker}'\nexec ${runs} "$@"\n`, {mode: 0o755});
  return {script, marker};
}

const CLIENT = '{"id":"c1","name":"agent","version":"1","transport":"http"}';

function recordingFile(flags: Record<string, unknown>): string {
  const file = path.join(dir, 'crafted.jsonl');
  const header = {
    format: 'mcp-browser-inspector-session',
    formatVersion: 1,
    appVersion: 'test',
    startedAt: 1700000000000,
    flags,
  };
  const args = JSON.stringify({function: '() => navigator.userAgent'});
  const lines = [
    JSON.stringify(header),
    `{"seq":1,"time":1700000000000,"event":{"type":"toolCallStarted","callId":"a","tool":"evaluate_script","args":${args},"client":${CLIENT}}}`,
    `{"seq":2,"time":1700000000001,"event":{"type":"toolCallEnded","callId":"a","tool":"evaluate_script","status":"ok","durationMs":1,"result":{"text":"recorded","images":[]}}}`,
  ];
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

function listening(port: number): Promise<boolean> {
  return new Promise(resolve => {
    const socket = net.connect({host: '127.0.0.1', port});
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe('replay of a crafted recording', () => {
  it('runs nothing it names, opens no port, and uses only what the page sees', async () => {
    const chromium = process.env.CHROME_PATH ?? '/usr/bin/chromium';
    const prefixes = ['renderer-cmd-prefix', 'gpu-launcher', 'utility-cmd-prefix'].map(name =>
      markingScript(name, ''),
    );
    const subprocess = markingScript('browser-subprocess-path', `'${chromium}'`);
    const executable = markingScript('executable', `'${chromium}'`);
    const debugPort = await restartablePort();
    const foreignRecordings = path.join(dir, 'foreign-recordings');
    const flags = {
      pageIdRouting: false,
      workspaceRoots: ['/'],
      recording: {enabled: true, dir: foreignRecordings},
      browser: {
        headless: true,
        executablePath: executable.script,
        userDataDir: path.join(dir, 'foreign-profile'),
        browserUrl: 'http://127.0.0.1:1',
        proxyServer: 'http://127.0.0.1:1',
        acceptInsecureCerts: true,
        chromeArgs: [
          ...prefixes.map(({script}, index) =>
            index === 0
              ? `--renderer-cmd-prefix=${script}`
              : index === 1
                ? `--gpu-launcher=${script}`
                : `--utility-cmd-prefix=${script}`,
          ),
          `--browser-subprocess-path=${subprocess.script}`,
          `--remote-debugging-port=${debugPort}`,
          `--user-data-dir=${path.join(dir, 'foreign-profile-2')}`,
          `--load-extension=${dir}`,
          '--proxy-server=http://127.0.0.1:1',
          '--disable-web-security',
          '--user-agent=ReplayUA/1',
        ],
      },
    };
    const configDir = path.join(dir, 'config');
    const run = await runCli(['replay', recordingFile(flags), '--isolated'], configDir);

    for (const {marker} of [...prefixes, subprocess, executable]) {
      expect(fs.existsSync(marker), `${marker}\n${run.stderr}`).toBe(false);
    }
    expect(await listening(debugPort)).toBe(false);
    expect(fs.existsSync(path.join(dir, 'foreign-profile'))).toBe(false);
    expect(fs.existsSync(path.join(dir, 'foreign-profile-2'))).toBe(false);
    expect(fs.existsSync(foreignRecordings)).toBe(false);
    // The replay's own run is recorded where this machine keeps recordings.
    expect(fs.readdirSync(path.join(configDir, 'sessions')).length).toBeGreaterThan(0);

    const refusal = run.stderr.split('\n').find(line => line.startsWith('Not using'));
    expect(refusal, run.stderr).toBeDefined();
    for (const name of [
      '--renderer-cmd-prefix',
      '--gpu-launcher',
      '--utility-cmd-prefix',
      '--browser-subprocess-path',
      '--remote-debugging-port',
      '--user-data-dir',
      '--load-extension',
      '--proxy-server',
      '--disable-web-security',
      '--acceptInsecureCerts',
    ]) {
      expect(refusal).toContain(name);
    }
    // Names only: no path from the recording is printed.
    expect(refusal).not.toContain(dir);
    expect(run.stderr).toContain("Using the recording's flags: --headless");
    // The call ran in a browser with the recorded user agent (its result differs from "recorded").
    expect(run.stdout).toMatch(/^# +1 DIFFERENT +evaluate_script/m);
    expect(run.stdout).toContain('ReplayUA/1');
    expect(run.code).toBe(1);
  });
});
