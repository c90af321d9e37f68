/**
 * What the Recordings panel lists about one recording (calls, errors, clients, duration), built from
 * its events as they are recorded or, for a recording the list has not seen, by scanning its file.
 */
import type {EventEnvelope} from '../../shared/protocol.js';
import {z} from 'zod';

export const summaryCountsSchema = z.object({
  startedAt: z.number(),
  /** The recording a replay's own recording replayed (its file name). */
  replayOf: z.string().optional(),
  lastEventAt: z.number(),
  clients: z.array(z.string()),
  calls: z.number().int().nonnegative(),
  errors: z.number().int().nonnegative(),
  /** Lines longer than a recording's can be, read past (lineReader.ts). */
  skippedLines: z.number().int().nonnegative().optional(),
});
export type SummaryCounts = z.infer<typeof summaryCountsSchema>;

/** Most client names one summary keeps. */
const MAX_CLIENTS = 20;

export class SummaryBuilder {
  #lastEventAt: number;
  readonly #clients = new Set<string>();
  #calls = 0;
  #errors = 0;

  constructor(
    readonly startedAt: number,
    readonly replayOf?: string,
  ) {
    this.#lastEventAt = startedAt;
  }

  add(envelope: EventEnvelope): void {
    this.#lastEventAt = Math.max(this.#lastEventAt, envelope.time);
    const {event} = envelope;
    if (event.type === 'toolCallStarted') {
      this.#calls++;
      this.#addClient(event.client.name);
    } else if (event.type === 'toolCallEnded' && event.status === 'error') {
      this.#errors++;
    } else if (event.type === 'clientConnected') {
      this.#addClient(event.client.name);
    }
  }

  #addClient(name: string): void {
    if (this.#clients.size < MAX_CLIENTS) {
      this.#clients.add(name);
    }
  }

  counts(): SummaryCounts {
    return {
      startedAt: this.startedAt,
      ...(this.replayOf === undefined ? {} : {replayOf: this.replayOf}),
      lastEventAt: this.#lastEventAt,
      clients: [...this.#clients],
      calls: this.#calls,
      errors: this.#errors,
    };
  }
}
