import {z} from 'zod';

/**
 * One usage-telemetry record, in the shape chrome-devtools-mcp's Clearcut logger would send
 * (reference §4). This app never sends it anywhere; it is shown in the inspector and, with
 * `--telemetryLog`, appended to a local file.
 */
export const toolInvocationSchema = z.object({
  tool_name: z.string(),
  success: z.boolean(),
  latency_ms: z.number(),
  tool_params: z
    .record(z.string(), z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])))
    .optional(),
  context: z
    .object({
      is_localhost: z.boolean().optional(),
    })
    .optional(),
});

export const telemetryRecordSchema = z.object({
  os_type: z.number().int(),
  mcp_client: z.number().int(),
  raw_client_name: z.string().optional(),
  app_version: z.string(),
  session_id: z.string(),
  tool_invocation: toolInvocationSchema,
});

export type TelemetryRecord = z.infer<typeof telemetryRecordSchema>;

/** What each field means, for the telemetry preview. */
export const TELEMETRY_FIELD_HELP: Record<string, string> = {
  os_type: 'Operating system: 1 Windows, 2 macOS, 3 Linux, 0 other.',
  mcp_client:
    'Known MCP client family from its name (1 Claude Code, 2 Gemini, 3 other, 6 Codex, 10 Claude Desktop, 11 Copilot, …).',
  raw_client_name:
    'Only for unknown clients: the client name if it is short and plain, else "<redacted>".',
  app_version: 'Version of this app.',
  session_id: 'Random id of this server run; not tied to you or your machine.',
  'tool_invocation.tool_name': 'Which tool ran.',
  'tool_invocation.success':
    'Whether the server produced a response (a tool error rendered to the agent still counts).',
  'tool_invocation.latency_ms':
    'Duration, rounded up to a bucket: 50, 100, 250, 500, 1000, 2500, 5000 or 10000 ms.',
  'tool_invocation.tool_params':
    'Arguments, sanitized: text becomes a bucketed length (<name>_length), lists a count (<name>_count); numbers, booleans and enum values stay; ids (uid, reqid, msgid) are dropped.',
  'tool_invocation.context.is_localhost': 'Whether the page was on localhost or 127.0.0.0/8.',
};

/** What os_type's codes mean (chrome-devtools-mcp's). */
export const OS_TYPE_NAMES: Readonly<Record<number, string>> = {
  0: 'other',
  1: 'Windows',
  2: 'macOS',
  3: 'Linux',
};

/** What mcp_client's codes mean: the client family its name was matched to. */
export const MCP_CLIENT_NAMES: Readonly<Record<number, string>> = {
  1: 'Claude Code',
  2: 'Gemini',
  3: 'other',
  5: 'OpenClaw',
  6: 'Codex',
  7: 'Antigravity',
  8: 'Grok',
  9: 'OpenCode',
  10: 'Claude Desktop',
  11: 'Copilot',
};
