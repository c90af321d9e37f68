/**
 * Raw CDP access for commands newer than puppeteer's bundled protocol types (WebMCP.invokeTool,
 * Page.startScreenRecording, …). Results are validated with zod instead of trusted.
 */
import type {CDPEvents, CDPSession} from 'puppeteer-core';
import type {z} from 'zod';

export async function sendUntyped<T>(
  cdp: CDPSession,
  method: string,
  params: Record<string, unknown>,
  resultSchema: z.ZodType<T>,
): Promise<T> {
  const raw: unknown = await Reflect.apply(cdp.send.bind(cdp), undefined, [method, params]);
  const parsed = resultSchema.safeParse(raw);
  if (!parsed.success) {
    throw new Error(`Unexpected reply to ${method}: ${parsed.error.message}`);
  }
  return parsed.data;
}

/** Subscribes to a CDP event that puppeteer's types do not know; returns the unsubscribe function. */
export function onUntyped<T>(
  cdp: CDPSession,
  event: string,
  schema: z.ZodType<T>,
  listener: (payload: T) => void,
): () => void {
  const handler = (payload: unknown): void => {
    const parsed = schema.safeParse(payload);
    if (parsed.success) {
      listener(parsed.data);
    }
  };
  Reflect.apply(cdp.on.bind(cdp), undefined, [event, handler]);
  return () => {
    Reflect.apply(cdp.off.bind(cdp), undefined, [event, handler]);
  };
}

/** Subscribes to a typed CDP event; returns the unsubscribe function. */
export function onEvent<E extends keyof CDPEvents>(
  cdp: CDPSession,
  event: E,
  listener: (payload: CDPEvents[E]) => void,
): () => void {
  cdp.on(event, listener);
  return () => {
    cdp.off(event, listener);
  };
}
