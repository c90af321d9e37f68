/**
 * Builds the telemetry record a call would produce and keeps it local: the inspector shows it and
 * --telemetryLog appends it to a file. There is no network code here, by design.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import {NOFOLLOW} from '../files/folder.js';
import type {ClientRef} from '../../shared/protocol.js';
import type {TelemetryRecord} from '../../shared/telemetry.js';
import {
  bucketLatency,
  isLocalhostUrl,
  mcpClientCode,
  osTypeCode,
  rawClientName,
  sanitizeParams,
  telemetryName,
  type TelemetryTool,
} from './sanitize.js';

export interface InvocationFacts {
  tool: TelemetryTool;
  params: Record<string, unknown>;
  client: ClientRef;
  success: boolean;
  latencyMs: number;
  pageUrl: string | undefined;
}

export class TelemetryRecorder {
  /** One random id per server run: the record's `session_id`, the peer's name for that field. */
  readonly runId = crypto.randomUUID();
  #logStream: fs.WriteStream | undefined;
  #logFailed = false;

  constructor(
    private readonly appVersion: string,
    private readonly logPath: string | undefined,
    private readonly log: (line: string) => void,
  ) {}

  record(facts: InvocationFacts): TelemetryRecord {
    const sanitized = sanitizeParams(facts.params, facts.tool.paramKinds);
    const toolName = telemetryName(facts.tool.name);
    const clientCode = mcpClientCode(facts.client.name);
    const record: TelemetryRecord = {
      os_type: osTypeCode(process.platform),
      mcp_client: clientCode,
      ...(clientCode === 3 ? {raw_client_name: rawClientName(facts.client.name)} : {}),
      app_version: this.appVersion,
      session_id: this.runId,
      tool_invocation: {
        tool_name: toolName,
        success: facts.success,
        latency_ms: bucketLatency(facts.latencyMs),
        ...(Object.keys(sanitized).length > 0
          ? {tool_params: {[`${toolName}_params`]: sanitized}}
          : {}),
        ...(facts.pageUrl === undefined
          ? {}
          : {context: {is_localhost: isLocalhostUrl(facts.pageUrl)}}),
      },
    };
    this.#append(record);
    return record;
  }

  #append(record: TelemetryRecord): void {
    if (this.logPath === undefined || this.#logFailed) {
      return;
    }
    if (!this.#logStream) {
      let fd: number;
      try {
        // Never through a link planted at the log's path.
        fd = fs.openSync(
          this.logPath,
          fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_CREAT | NOFOLLOW,
          0o600,
        );
      } catch (error) {
        this.#logFailed = true;
        this.log(
          `Could not write the telemetry log ${this.logPath}: ${error instanceof Error ? error.message : String(error)}`,
        );
        return;
      }
      this.#logStream = fs.createWriteStream(this.logPath, {fd});
      this.#logStream.on('error', error => {
        this.#logFailed = true;
        this.log(`Could not write the telemetry log ${this.logPath ?? ''}: ${error.message}`);
      });
    }
    this.#logStream.write(`${JSON.stringify(record)}\n`);
  }

  async close(): Promise<void> {
    const stream = this.#logStream;
    if (stream) {
      await new Promise<void>(resolve => stream.end(resolve));
    }
  }
}
