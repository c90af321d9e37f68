/**
 * The `--readyFile` contract (docs/architecture.md, "Contracts other programs rely on"): written
 * atomically, mode 0600, once the server accepts connections; removed again when it stops.
 */
import {z} from 'zod';

export const readyFileSchema = z.object({
  mcpUrl: z.string(),
  inspectorUrl: z.string(),
  token: z.string(),
  pid: z.number().int(),
});

export type ReadyFile = z.infer<typeof readyFileSchema>;
