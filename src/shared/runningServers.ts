/**
 * The servers running on this machine for this user, as each announces itself in the per-user
 * runtime folder (`mcp-browser-inspector list`, the inspector's Servers tab): one file per server,
 * `<pid>.json`, mode 0600 in a 0700 folder, written when it accepts connections and whenever its
 * clients change, removed when it stops. A file whose process is gone is dropped by the next reader.
 */
import {z} from 'zod';
import {readyFileSchema} from './readyFile.js';

/** The clients a file names at most; more are counted. */
export const RUNNING_CLIENTS_SHOWN = 20;

export const runningClientSchema = z.object({
  name: z.string().max(200),
  transport: z.enum(['http', 'stdio', 'inspector']),
  /** An open stream or a request in flight, or one in the last few seconds. */
  live: z.boolean(),
});
export type RunningClient = z.infer<typeof runningClientSchema>;

/** A runtime file: the ready file's fields (the same readers can use it) and who the server is. */
export const runtimeFileSchema = readyFileSchema.extend({
  version: z.string().max(100),
  /** The desktop app, or the headless server (`mcp-browser-inspector`, `npm run serve`). */
  kind: z.enum(['desktop', 'headless']),
  /** Started by an agent over stdio (it serves the inspector on the side). */
  stdio: z.boolean(),
  startedAt: z.number(),
  /** Linux: the process's start in clock ticks, so a reused pid is not taken for this server. */
  startTicks: z.string().max(40).optional(),
  /** The folder it was started in (which project an agent runs it for). */
  cwd: z.string().max(4_096),
  /** Where the token is (a file, or --token / the environment), never the token. */
  tokenWhere: z.string().max(4_200),
  clients: z.array(runningClientSchema).max(RUNNING_CLIENTS_SHOWN),
  moreClients: z.number().int().nonnegative(),
});
export type RuntimeFile = z.infer<typeof runtimeFileSchema>;

/** A running server as an inspector shows it. */
export const runningServerSchema = runtimeFileSchema
  .omit({token: true, tokenWhere: true, startTicks: true})
  .extend({
    /** The inspector URL with this server's token in its fragment: what "Open" opens. */
    openUrl: z.string(),
    /** The server this inspector belongs to. */
    self: z.boolean(),
  });
export type RunningServer = z.infer<typeof runningServerSchema>;
