/**
 * Hold rules ("breakpoints" for agent calls): the grammar shared by the `--hold` flag, the
 * inspector's rules field and the engine, and the shapes of the hold queue the UI shows. One parser
 * here, so the flag, the UI and the engine accept exactly the same rules.
 */
import {z} from 'zod';
import {TOOL_CATEGORIES, type ToolCategory} from './categories.js';
import {URL_GLOB_MAX_CHARS} from './urlGlob.js';

export type HoldRule =
  | {kind: 'all'}
  | {kind: 'notReadOnly'}
  | {kind: 'tool'; name: string}
  | {kind: 'category'; category: ToolCategory}
  | {kind: 'url'; glob: string}
  | {kind: 'step'}
  | {kind: 'webmcpConsequential'}
  | {kind: 'webmcpNotReadOnly'};

/** What a rule list accepts, for error texts and --help. */
export const HOLD_RULES_ACCEPTED =
  'a comma-separated list of: all, not-read-only, tool:<name>, category:<id>, url:<glob>, step, webmcp-consequential, webmcp-not-read-only (or off)';

const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/** One rule as written (`tool:click`), or an error naming what is accepted. */
export function parseHoldRule(text: string): HoldRule | {error: string} {
  const rule = text.trim();
  switch (rule) {
    case 'all':
      return {kind: 'all'};
    case 'not-read-only':
      return {kind: 'notReadOnly'};
    case 'step':
      return {kind: 'step'};
    case 'webmcp-consequential':
      return {kind: 'webmcpConsequential'};
    case 'webmcp-not-read-only':
      return {kind: 'webmcpNotReadOnly'};
    default:
      // A rule with a value (tool:, category:, url:) or a mistake: read below.
      break;
  }
  const colon = rule.indexOf(':');
  const prefix = colon === -1 ? rule : rule.slice(0, colon);
  const value = colon === -1 ? '' : rule.slice(colon + 1).trim();
  if (prefix === 'tool' && TOOL_NAME.test(value)) {
    return {kind: 'tool', name: value};
  }
  if (prefix === 'category') {
    const category = TOOL_CATEGORIES.find(id => id === value);
    return category
      ? {kind: 'category', category}
      : {
          error: `Unknown category "${value}" in "${rule}". Categories: ${TOOL_CATEGORIES.join(', ')}.`,
        };
  }
  if (prefix === 'url' && value !== '') {
    return value.length <= URL_GLOB_MAX_CHARS
      ? {kind: 'url', glob: value}
      : {
          error: `The URL glob in "${rule.slice(0, 40)}…" is over ${URL_GLOB_MAX_CHARS} characters.`,
        };
  }
  return {error: `Unknown hold rule "${rule}". Expected ${HOLD_RULES_ACCEPTED}.`};
}

/**
 * A rule list (`not-read-only,tool:click`; several texts are joined). `off` or `none` alone, or
 * nothing, means no rules.
 */
export function parseHoldRules(texts: readonly string[]): {rules: HoldRule[]} | {error: string} {
  const parts = texts.flatMap(text => text.split(',')).map(part => part.trim());
  if (parts.every(part => part === '' || part === 'off' || part === 'none')) {
    return {rules: []};
  }
  const rules: HoldRule[] = [];
  for (const part of parts) {
    if (part === '') {
      return {
        error: `An empty hold rule in "${texts.join(',')}". Expected ${HOLD_RULES_ACCEPTED}.`,
      };
    }
    const parsed = parseHoldRule(part);
    if ('error' in parsed) {
      return parsed;
    }
    if (!rules.some(existing => formatHoldRule(existing) === formatHoldRule(parsed))) {
      rules.push(parsed);
    }
  }
  return {rules};
}

/** A rule as the user writes it. */
export function formatHoldRule(rule: HoldRule): string {
  switch (rule.kind) {
    case 'all':
      return 'all';
    case 'notReadOnly':
      return 'not-read-only';
    case 'tool':
      return `tool:${rule.name}`;
    case 'category':
      return `category:${rule.category}`;
    case 'url':
      return `url:${rule.glob}`;
    case 'step':
      return 'step';
    case 'webmcpConsequential':
      return 'webmcp-consequential';
    case 'webmcpNotReadOnly':
      return 'webmcp-not-read-only';
  }
}

// --- The queue, as the inspector sees it ------------------------------------------------------

const clientSchema = z.object({
  id: z.string(),
  name: z.string(),
  version: z.string(),
  transport: z.enum(['http', 'stdio', 'inspector']),
});

const rectSchema = z.object({x: z.number(), y: z.number(), width: z.number(), height: z.number()});

/** The element a held call targets (its uid argument), outlined in the live view once found. */
const heldTargetSchema = z.object({
  param: z.string(),
  uid: z.string(),
  /** In the page's viewport, CSS pixels; absent when the element has no box or is gone. */
  rect: rectSchema.optional(),
});

export const heldCallSchema = z.object({
  callId: z.string(),
  tool: z.string(),
  /** Exactly the arguments the call runs with, whatever the tool. */
  args: z.record(z.string(), z.unknown()),
  client: clientSchema,
  pageId: z.number().optional(),
  pageUrl: z.string().optional(),
  /** The rule that held it, as written. */
  rule: z.string(),
  /** Why it matched, in words (e.g. "click is not read-only"). */
  reason: z.string(),
  heldAt: z.number(),
  /** When it is denied unless someone decides (server clock, epoch ms). */
  deadline: z.number(),
  target: heldTargetSchema.optional(),
  /** The client was asked too (MCP elicitation): it may answer first. */
  askedInClient: z.boolean().optional(),
  /**
   * The client can neither be asked nor kept waiting with progress (it sent no progress token):
   * it may give up on the call after its own timeout (the SDK's is 60 s), before the hold's.
   */
  clientMayGiveUp: z.boolean().optional(),
});
export type HeldCall = z.infer<typeof heldCallSchema>;

export const holdStateSchema = z.object({
  /** The active rules as written (empty: holding is off). */
  rules: z.array(z.string()),
  timeoutMs: z.number(),
  /** Held calls, oldest first: the order they are shown and released in. */
  queue: z.array(heldCallSchema),
  /**
   * Whether a UI opens its Hold tab when a call is held: a person's choice, kept by the engine so
   * every UI of this server agrees (the desktop app also remembers it in its settings).
   */
  openOnHeld: z.boolean(),
  /**
   * The last inspector event (sequence id) this state includes: the hold events after it change
   * it, the ones up to it are in it already.
   */
  seq: z.number().int().nonnegative(),
});
export type HoldState = z.infer<typeof holdStateSchema>;

export const holdDecisionSchema = z.enum(['allowed', 'edited', 'denied', 'timedOut', 'cancelled']);
export type HoldDecision = z.infer<typeof holdDecisionSchema>;

/**
 * The events of this feature (appended to the inspector's event union). Each says what changed,
 * never the whole queue again: a UI keeps its queue from holdGetState and these.
 */
export const holdEventSchemas = [
  z.object({
    type: z.literal('holdRulesChanged'),
    rules: z.array(z.string()),
    timeoutMs: z.number(),
  }),
  /** A call entered the queue (at its end). */
  z.object({type: z.literal('callHeld'), call: heldCallSchema}),
  /** The box of a held call's target was found. */
  z.object({type: z.literal('callHoldTarget'), callId: z.string(), target: heldTargetSchema}),
  /** A held call left the queue: how, and with which arguments it ran (if they were edited). */
  z.object({
    type: z.literal('callHoldEnded'),
    callId: z.string(),
    decision: holdDecisionSchema,
    heldMs: z.number(),
    reason: z.string().optional(),
    args: z.record(z.string(), z.unknown()).optional(),
    /** Where the person decided: in the inspector, or in the client that was asked too. */
    decidedIn: z.enum(['inspector', 'client']).optional(),
  }),
  /** The choice to open the Hold tab when a call is held changed. */
  z.object({type: z.literal('holdOpenOnHeldChanged'), openOnHeld: z.boolean()}),
  /** The whole state on every change, as recordings made by earlier versions hold it; ignored. */
  z.object({type: z.literal('holdChanged'), state: z.unknown()}),
] as const;

/** The commands of this feature (appended to the inspector's command union). */
export const holdCommandSchemas = [
  z.object({type: z.literal('holdGetState')}),
  /** Rules as written (same grammar as --hold); an empty list turns holding off. */
  z.object({type: z.literal('holdSetRules'), rules: z.array(z.string().max(2_000)).max(100)}),
  z.object({
    type: z.literal('holdDecide'),
    callId: z.string(),
    decision: z.enum(['allow', 'edit', 'deny']),
    /** For edit: the arguments to run instead (checked with the tool's schema). */
    args: z.record(z.string(), z.unknown()).optional(),
    /** For deny: told to the agent. */
    reason: z.string().max(2_000).optional(),
  }),
  z.object({type: z.literal('holdAllowAll')}),
  /** Denies every held call, oldest first; the reason (optional) is told to each agent. */
  z.object({type: z.literal('holdDenyAll'), reason: z.string().max(2_000).optional()}),
  z.object({type: z.literal('holdSetOpenOnHeld'), openOnHeld: z.boolean()}),
] as const;

export const holdReplySchemas = {
  holdGetState: holdStateSchema,
  holdSetRules: holdStateSchema,
  holdDecide: holdStateSchema,
  holdAllowAll: holdStateSchema,
  holdDenyAll: holdStateSchema,
  holdSetOpenOnHeld: holdStateSchema,
};
