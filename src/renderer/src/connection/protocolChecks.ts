/**
 * The checks of everything the engine sends: the zod schemas of the shared protocol, which are
 * most of the UI's code. main.tsx fetches this module in parallel with the first render; the
 * connections hold what arrives until it is here, so no message goes unchecked.
 */
import '../zodSetup.js';
import {commandReplySchemas} from '../../../shared/replies.js';
import {serverMessageSchema} from '../../../shared/wire.js';
import type {ProtocolChecks} from './ProtocolClient.js';

export const protocolChecks: ProtocolChecks = {
  message(value) {
    const parsed = serverMessageSchema.safeParse(value);
    if (!parsed.success) {
      console.warn('Ignored a malformed message from the inspector server.', parsed.error.issues);
      return undefined;
    }
    return parsed.data;
  },
  reply(type, reply) {
    if (!reply.ok) {
      return reply;
    }
    const parsed = commandReplySchemas[type].safeParse(reply.value);
    if (!parsed.success) {
      console.warn(
        `The server answered ${type} in a shape this UI does not understand.`,
        parsed.error.issues,
      );
      return {
        ok: false,
        error: `The server answered ${type} in a shape this UI does not understand. Reload the inspector (the server may have been updated).`,
      };
    }
    return {ok: true, value: parsed.data};
  },
};
