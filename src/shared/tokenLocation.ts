/**
 * Where this server's token is, for a person who opened the inspector without it: the UI asks
 * before it has a token, so the answer names a place and never the token itself. Served at
 * TOKEN_LOCATION_PATH, same-origin only (the Host and Origin checks of every request apply); the
 * same place is in every 401.
 */
import {z} from 'zod';

export const tokenLocationSchema = z.discriminatedUnion('source', [
  /** The token was generated and kept in this file (mode 0600). */
  z.object({source: z.literal('file'), file: z.string().max(4_096)}),
  /** The token was given with --token or the environment variable `env`. */
  z.object({source: z.literal('flag-or-env'), env: z.string().max(200)}),
]);
export type TokenLocation = z.infer<typeof tokenLocationSchema>;
