/**
 * A scripted agent that keeps calling tools at a steady rate (like an agent working fast), for
 * tests of a UI that must stay usable while calls stream in.
 */
import type {Client} from '@modelcontextprotocol/sdk/client/index.js';

export interface CallStream {
  /** Calls answered so far. */
  answered(): number;
  /** Stops starting calls and waits for the ones in flight. */
  stop(): Promise<number>;
}

export function streamCalls(
  client: Client,
  options: {perSecond: number; tool?: string; args?: Record<string, unknown>},
): CallStream {
  const interval = 1000 / options.perSecond;
  let stopped = false;
  let answered = 0;
  const inFlight = new Set<Promise<unknown>>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const next = (): void => {
    if (stopped) {
      return;
    }
    const call = client
      .callTool({name: options.tool ?? 'list_pages', arguments: options.args ?? {}})
      .then(
        () => answered++,
        () => undefined,
      );
    inFlight.add(call);
    void call.finally(() => inFlight.delete(call));
    timer = setTimeout(next, interval);
  };
  next();
  return {
    answered: () => answered,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await Promise.all([...inFlight]);
      return answered;
    },
  };
}
