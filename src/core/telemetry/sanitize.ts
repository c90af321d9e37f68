/**
 * chrome-devtools-mcp's telemetry rules (reference §4.3): strings become a bucketed length, arrays a
 * count, numbers/booleans/enums stay, ids are dropped, names go snake_case. Nothing here is sent.
 */
/**
 * A parameter's kind decides what of its value a record keeps (see sanitizeParams). `element`: a
 * snapshot uid, as the tool's record declares it; never kept.
 */
export type ParamKind = 'string' | 'number' | 'boolean' | 'array' | 'enum' | 'element' | 'other';

/** What telemetry needs to know about a tool: its name and the kind of each parameter. */
export interface TelemetryTool {
  readonly name: string;
  readonly paramKinds: Readonly<Record<string, ParamKind>>;
}

const STRING_LENGTH_BUCKETS = [0, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000];
const LATENCY_BUCKETS = [50, 100, 250, 500, 1000, 2500, 5000, 10000];
/** Ids that are not elements (network requests, console messages): dropped like element uids. */
const BLOCKLISTED_PARAMS = new Set(['reqid', 'msgid']);

function bucketize(value: number, buckets: readonly number[]): number {
  for (const bucket of buckets) {
    if (value <= bucket) {
      return bucket;
    }
  }
  return buckets.at(-1) ?? value;
}

export function bucketLatency(ms: number): number {
  return bucketize(ms, LATENCY_BUCKETS);
}

export function bucketStringLength(length: number): number {
  return bucketize(length, STRING_LENGTH_BUCKETS);
}

/** `execute_3p_developer_tool` → `execute3p_developer_tool`; `filePath` → `file_path`. */
export function telemetryName(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/_(?=\d)/g, '');
}

export function sanitizeParams(
  params: Record<string, unknown>,
  kinds: Readonly<Record<string, ParamKind>>,
): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined || BLOCKLISTED_PARAMS.has(name)) {
      continue;
    }
    const kind = name === 'pageId' ? 'number' : kinds[name];
    const key = telemetryName(name);
    if (kind === 'string' && typeof value === 'string') {
      out[`${key}_length`] = bucketStringLength(value.length);
    } else if (kind === 'array' && Array.isArray(value)) {
      out[`${key}_count`] = value.length;
    } else if (
      (kind === 'number' && typeof value === 'number') ||
      (kind === 'boolean' && typeof value === 'boolean')
    ) {
      out[key] = value;
    } else if (
      kind === 'enum' &&
      (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
    ) {
      out[key] = value;
    }
    // Anything else (element uids, objects, mismatched types) is left out rather than guessed at.
  }
  return out;
}

/** MCP client family codes, matched on the client name like chrome-devtools-mcp does. */
export function mcpClientCode(name: string): number {
  const lower = name.toLowerCase();
  const table: [string, number][] = [
    ['claude-desktop', 10],
    ['claude', 1],
    ['gemini', 2],
    ['openclaw', 5],
    ['opencode', 9],
    ['codex', 6],
    ['antigravity', 7],
    ['grok', 8],
    ['xai', 8],
    ['copilot', 11],
  ];
  for (const [needle, code] of table) {
    if (lower.includes(needle)) {
      return code;
    }
  }
  return 3;
}

export function rawClientName(name: string): string {
  return /^[A-Za-z0-9_-]{1,31}$/.test(name) ? name : '<redacted>';
}

/** The peer's OS codes; any other platform is 0. */
const OS_TYPE_CODES: Partial<Record<NodeJS.Platform, number>> = {win32: 1, darwin: 2, linux: 3};

export function osTypeCode(platform: NodeJS.Platform): number {
  return OS_TYPE_CODES[platform] ?? 0;
}

export function isLocalhostUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    if (!['http:', 'https:', 'ws:', 'wss:'].includes(parsed.protocol)) {
      return false;
    }
    const host = parsed.hostname;
    return (
      host === 'localhost' ||
      host.endsWith('.localhost') ||
      host === '[::1]' ||
      /^127\.\d+\.\d+\.\d+$/.test(host)
    );
  } catch {
    return false;
  }
}
