/** The `--readyFile` contract: written (atomically) once the server listens; see DESIGN.md. */
import {z} from 'zod';

export const readyFileSchema = z.object({
  mcpUrl: z.string(),
  inspectorUrl: z.string(),
  token: z.string(),
  pid: z.number().int(),
});

export type ReadyFile = z.infer<typeof readyFileSchema>;
