/**
 * The only place that touches ipcMain. Every IPC message is checked before any handler runs:
 * the sender must be the MAIN frame of a document from the app origin (checked on the frame's
 * URL, parsed), and the message must carry exactly one payload that passes the channel's zod
 * schema. Refused calls are logged; handlers never see them.
 */
import type {z} from 'zod';
import {originOf} from './appProtocol.js';

/** The frame that sent an IPC message, as Electron's WebFrameMain describes it. */
export interface SenderFrame {
  readonly url: string;
  readonly parent: SenderFrame | null;
}

/** The webContents that sent an IPC message: what the bridge needs to answer it. */
export interface IpcSender {
  readonly id: number;
  send(channel: string, ...args: unknown[]): void;
  isDestroyed(): boolean;
  once(event: 'destroyed', listener: () => void): unknown;
}

export interface IpcEvent {
  readonly senderFrame: SenderFrame | null;
  readonly sender: IpcSender;
}

/** The parts of Electron's ipcMain the ingress uses. */
export interface IpcMainLike {
  handle(channel: string, listener: (event: IpcEvent, ...args: unknown[]) => unknown): void;
  removeHandler(channel: string): void;
  on(channel: string, listener: (event: IpcEvent, ...args: unknown[]) => void): unknown;
  removeListener(channel: string, listener: (event: IpcEvent, ...args: unknown[]) => void): unknown;
}

export interface IngressOptions {
  /** Origins (scheme://host[:port]) whose main frame may call: the app protocol, the dev server. */
  allowedOrigins: readonly string[];
  log: (line: string) => void;
}

export type SenderCheck = {ok: true} | {ok: false; reason: string};

/** Why a sender frame may not call, or ok. Exported for tests and for the bridge's own use. */
export function checkSenderFrame(
  frame: SenderFrame | null,
  allowedOrigins: readonly string[],
): SenderCheck {
  if (frame === null) {
    return {ok: false, reason: 'the sending frame is gone'};
  }
  if (frame.parent !== null) {
    return {ok: false, reason: 'the sender is a subframe, not the main frame'};
  }
  const origin = originOf(frame.url);
  if (origin === undefined || !allowedOrigins.includes(origin)) {
    return {ok: false, reason: `the sender origin ${origin ?? '(none)'} is not the app`};
  }
  return {ok: true};
}

class IpcRefusedError extends Error {}

export interface IpcIngress {
  /**
   * A request/response channel (ipcRenderer.invoke). A foreign sender gets a rejection; a payload
   * that fails the schema gets `invalid(message, payload)` so the app's own UI sees a readable
   * error (the unchecked payload only helps address the answer).
   */
  handle<S extends z.ZodType, R>(
    channel: string,
    schema: S,
    handler: (payload: z.infer<S>, sender: IpcSender) => Promise<R> | R,
    invalid: (message: string, payload: unknown) => R,
  ): void;
  /** A one-way channel (ipcRenderer.send). Refused messages are dropped and logged. */
  on<S extends z.ZodType>(
    channel: string,
    schema: S,
    handler: (payload: z.infer<S>, sender: IpcSender) => void,
  ): void;
  dispose(): void;
}

function issuesText(error: z.ZodError): string {
  return error.issues
    .map(issue =>
      issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message,
    )
    .join('; ');
}

export function createIpcIngress(ipcMain: IpcMainLike, options: IngressOptions): IpcIngress {
  const handled = new Set<string>();
  const listeners = new Map<string, (event: IpcEvent, ...args: unknown[]) => void>();

  const refuse = (channel: string, reason: string): string => {
    const message = `Refused IPC on ${channel}: ${reason}.`;
    options.log(message);
    return message;
  };

  /** The single payload of a message, or why it is malformed. */
  const payloadOf = <S extends z.ZodType>(
    schema: S,
    args: unknown[],
  ): {ok: true; value: z.infer<S>} | {ok: false; message: string} => {
    if (args.length !== 1) {
      return {ok: false, message: `expected one argument, got ${args.length}`};
    }
    const parsed = schema.safeParse(args[0]);
    return parsed.success
      ? {ok: true, value: parsed.data}
      : {ok: false, message: issuesText(parsed.error)};
  };

  return {
    handle(channel, schema, handler, invalid) {
      if (handled.has(channel)) {
        throw new Error(`IPC channel ${channel} is already handled.`);
      }
      handled.add(channel);
      ipcMain.handle(channel, async (event, ...args) => {
        const sender = checkSenderFrame(event.senderFrame, options.allowedOrigins);
        if (!sender.ok) {
          throw new IpcRefusedError(refuse(channel, sender.reason));
        }
        const payload = payloadOf(schema, args);
        if (!payload.ok) {
          refuse(channel, `invalid arguments (${payload.message})`);
          return invalid(`Invalid arguments for ${channel}: ${payload.message}`, args[0]);
        }
        return handler(payload.value, event.sender);
      });
    },
    on(channel, schema, handler) {
      if (listeners.has(channel)) {
        throw new Error(`IPC channel ${channel} is already handled.`);
      }
      const listener = (event: IpcEvent, ...args: unknown[]): void => {
        const sender = checkSenderFrame(event.senderFrame, options.allowedOrigins);
        if (!sender.ok) {
          refuse(channel, sender.reason);
          return;
        }
        const payload = payloadOf(schema, args);
        if (!payload.ok) {
          refuse(channel, `invalid arguments (${payload.message})`);
          return;
        }
        handler(payload.value, event.sender);
      };
      listeners.set(channel, listener);
      ipcMain.on(channel, listener);
    },
    dispose() {
      for (const channel of handled) {
        ipcMain.removeHandler(channel);
      }
      handled.clear();
      for (const [channel, listener] of listeners) {
        ipcMain.removeListener(channel, listener);
      }
      listeners.clear();
    },
  };
}
