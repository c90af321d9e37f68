/**
 * The --telemetryLog file: appended with mode 0600, and never written through a link planted at
 * its path (the write is refused and said once).
 *
 * Tests: src/core/telemetry/TelemetryRecorder.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {TelemetryRecorder} from '../../../src/core/telemetry/TelemetryRecorder.js';

const made: string[] = [];

afterEach(() => {
  for (const dir of made.splice(0)) {
    fs.rmSync(dir, {recursive: true, force: true});
  }
});

const facts = {
  tool: {name: 'list_pages', paramKinds: {}},
  params: {},
  client: {id: 'c1', name: 'claude-code', version: '1', transport: 'http' as const},
  success: true,
  latencyMs: 12,
  pageUrl: undefined,
};

describe('the telemetry log file', () => {
  it('appends records, and refuses a link at its path', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mbi-telemetry-log-'));
    made.push(dir);
    const logFile = path.join(dir, 'telemetry.jsonl');
    const plain = new TelemetryRecorder('test', logFile, () => undefined);
    plain.record(facts);
    plain.record(facts);
    await plain.close();
    expect(fs.readFileSync(logFile, 'utf8').trim().split('\n')).toHaveLength(2);
    expect(fs.statSync(logFile).mode & 0o777).toBe(0o600);

    const victim = path.join(dir, 'victim.txt');
    fs.writeFileSync(victim, 'precious');
    const linked = path.join(dir, 'linked.jsonl');
    fs.symlinkSync(victim, linked);
    const logs: string[] = [];
    const refused = new TelemetryRecorder('test', linked, line => logs.push(line));
    refused.record(facts);
    refused.record(facts);
    await refused.close();
    expect(fs.readFileSync(victim, 'utf8')).toBe('precious');
    expect(logs).toHaveLength(1);
    expect(logs[0]).toContain(`Could not write the telemetry log ${linked}`);
  });
});
