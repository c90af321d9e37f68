/**
 * The inspector commands: one handler per command type, each typed to return its command's reply
 * (src/shared/replies.ts), so the engine cannot answer in a shape the UI does not check for. A
 * handler that throws answers `{ok: false, error}` with its message, written for the user.
 */
import {nestsDeeperThan, VALUE_DEPTH_LIMIT} from '../shared/boundedValue.js';
import {errorText} from '../shared/values.js';
import type {InspectorCommandType, InspectorState} from '../shared/protocol.js';
import type {CommandOf, CommandResult, ReplyMap} from '../shared/replies.js';
import type {PageRegistry} from './browser/pages/PageRegistry.js';
import type {HoldGate} from './mcp/hold/HoldGate.js';
import type {PageState} from './browser/pages/PageState.js';
import type {ToolCatalog} from './tools/base/ToolCatalog.js';
import {INSPECTOR_TIMEOUT_MS, type WebMcpService} from './webmcp/WebMcpService.js';
import {DEFAULT_WATCHER, type LiveView} from './inspector/LiveView.js';
import type {Recordings} from './recordings/Recordings.js';
import type {LiveReplays} from './recordings/replay/live.js';
import type {RunningServer} from '../shared/runningServers.js';

/** What the handlers act on: the engine's parts. */
export interface CommandContext {
  state(): InspectorState;
  catalog: ToolCatalog;
  /** Runs a tool through the pipeline as the inspector's own client. */
  runTool(tool: string, args: Record<string, unknown>): Promise<ReplyMap['runTool']>;
  token: string;
  /** Client sessions started after this get a browser context of their own (or no longer). */
  setIsolateClients(enabled: boolean): ReplyMap['setIsolateClients'];
  liveView: LiveView;
  webmcp: WebMcpService;
  hold: HoldGate;
  pages: PageRegistry;
  browserConnected(): boolean;
  /** The recordings folder and this run's recording. */
  recordings: Recordings;
  /** Replay and export of recordings. */
  replays: LiveReplays;
  /** The servers running for this user on this machine, this one included. */
  runningServers(): RunningServer[];
}

/**
 * `watcher` names the UI connection the command came from (the live view runs while any watches);
 * undefined is the one default watcher (the desktop window).
 */
type Handler<K extends InspectorCommandType> = (
  command: CommandOf<K>,
  watcher: string | undefined,
) => Promise<ReplyMap[K]> | ReplyMap[K];

export type CommandHandlers = {[K in InspectorCommandType]: Handler<K>};

function notInSlim(catalog: ToolCatalog, what: string): void {
  if (catalog.slim) {
    throw new Error(`${what} do not apply in --slim mode. Restart without --slim to switch them.`);
  }
}

/** The tool input of a webmcpExecute: a JSON object, or an error that says how to fix it. */
function parseToolInput(text: string): Record<string, unknown> {
  let input: unknown;
  try {
    input = text.trim() === '' ? {} : JSON.parse(text);
  } catch (error) {
    throw new Error(
      `The input is not valid JSON (${errorText(error)}). Fix it or switch back to the form.`,
      {cause: error},
    );
  }
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    throw new Error('The input must be a JSON object, e.g. {"query": "…"}.');
  }
  if (nestsDeeperThan(input, VALUE_DEPTH_LIMIT)) {
    throw new Error(`The input nests deeper than ${VALUE_DEPTH_LIMIT} levels; make it flatter.`);
  }
  return Object.fromEntries(Object.entries(input));
}

function webmcpHandlers(
  context: CommandContext,
): Pick<CommandHandlers, Extract<InspectorCommandType, `webmcp${string}`>> {
  const {webmcp, pages} = context;
  // Without a page: the one selected last (by any client or the Run panel).
  const pageOrSelected = (pageId: number | undefined): PageState | undefined =>
    pageId === undefined ? pages.focused : pages.byId(pageId);
  return {
    webmcpListTools: command =>
      command.pageId === undefined ? webmcp.tools() : webmcp.toolsOf(pages.byId(command.pageId)),
    webmcpExecute: async command => {
      const record = await webmcp.start({
        page: pages.byId(command.pageId),
        frameId: command.frameId,
        toolName: command.toolName,
        input: parseToolInput(command.input),
        invoker: {kind: 'inspector'},
        timeoutMs: command.timeoutMs ?? INSPECTOR_TIMEOUT_MS,
      });
      return {invocationId: record.invocation.invocationId};
    },
    webmcpCancel: command => webmcp.cancel(command.invocationId, 'user'),
    webmcpHighlightForm: command =>
      webmcp.highlightForm(pages.byId(command.pageId), command.frameId, command.toolName),
    webmcpDoctor: command =>
      webmcp.doctor(context.browserConnected() ? pageOrSelected(command.pageId) : undefined),
  };
}

/** Hold rules: the queue of held agent calls and the decisions on them. */
function holdHandlers(
  context: CommandContext,
): Pick<CommandHandlers, Extract<InspectorCommandType, `hold${string}`>> {
  const {hold} = context;
  return {
    holdGetState: () => hold.state(),
    holdSetRules: command => hold.setRules(command.rules, {checkToolNames: true}),
    holdDecide: command =>
      hold.decide(command.callId, command.decision, {args: command.args, reason: command.reason}),
    holdAllowAll: () => hold.allowAll(),
    holdDenyAll: command => hold.denyAll(command.reason),
    holdSetOpenOnHeld: command => hold.setOpenOnHeld(command.openOnHeld),
  };
}

export function commandHandlers(context: CommandContext): CommandHandlers {
  const {catalog, liveView} = context;
  return {
    getState: () => context.state(),
    setCategoryEnabled: command => {
      notInSlim(catalog, 'Categories');
      catalog.setCategoryEnabled(command.category, command.enabled);
      return catalog.categoryStates();
    },
    setConditionEnabled: command => {
      notInSlim(catalog, 'Feature flags');
      catalog.setConditionEnabled(command.condition, command.enabled);
      return catalog.conditionStates();
    },
    getToolsList: () => ({tools: catalog.listDefinitions()}),
    runTool: command => context.runTool(command.tool, command.args),
    getToken: () => ({token: context.token}),
    setIsolateClients: command => context.setIsolateClients(command.enabled),
    startLiveView: async (command, watcher) => {
      await liveView.start(command.pageId, watcher ?? DEFAULT_WATCHER);
      return {pageId: liveView.pageId ?? null};
    },
    stopLiveView: async (_command, watcher) => {
      await liveView.stop(watcher ?? DEFAULT_WATCHER);
      return null;
    },
    ...webmcpHandlers(context),
    listServers: () => ({servers: context.runningServers()}),
    replayRecording: command => context.replays.start(command.recordingId, command.untilCall),
    exportRecording: command =>
      context.replays.exportText(command.recordingId, command.format, command.untilCall),
    ...holdHandlers(context),
    ...recordingHandlers(context.recordings),
  };
}

/** Recordings by id, checked against the recordings folder. */
function recordingHandlers(
  recordings: Recordings,
): Pick<
  CommandHandlers,
  | 'recordingsList'
  | 'recordingRead'
  | 'recordingImage'
  | 'recordingDelete'
  | 'recordingStar'
  | 'recordingsSearch'
> {
  return {
    recordingsList: () => recordings.list(),
    recordingRead: command => recordings.read(command.id, command.offset, command.maxBytes),
    recordingImage: command => recordings.image(command.id, command.file),
    recordingDelete: command => recordings.delete(command.id),
    recordingStar: command => recordings.star(command.id, command.starred),
    recordingsSearch: command => recordings.search(command.query),
  };
}

/** Runs one command: its handler's reply, or the handler's error as text. */
export async function runCommand<K extends InspectorCommandType>(
  handlers: CommandHandlers,
  type: K,
  command: CommandOf<K>,
  watcher: string | undefined,
): Promise<CommandResult<K>> {
  const handler: Handler<K> = handlers[type];
  try {
    return {ok: true, value: await handler(command, watcher)};
  } catch (error) {
    return {ok: false, error: errorText(error)};
  }
}
