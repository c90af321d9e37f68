/**
 * Asking where the person is: a held call also asks the client that made it, when that client
 * supports MCP elicitation, "Allow navigate_page → https://…? Allow / Deny / Edit in the
 * inspector". The first answer wins, in the client or in the inspector; the other place is told
 * who answered (the client's question is withdrawn with notifications/cancelled, the inspector
 * shows where the call was decided). Only the question and the reading of its answer are here;
 * sending it is the client session's (ClientSession.ts).
 */
import {describeCall} from '../../../shared/callSummary.js';
import type {HeldCall} from '../../../shared/hold.js';
import {isRecord} from '../../../shared/values.js';

/** What the client's person chose: run it, refuse it, or decide in the inspector (no answer). */
export type ClientAnswer = 'allow' | 'deny' | undefined;

export interface ClientQuestion {
  message: string;
  requestedSchema: {
    type: 'object';
    properties: {
      decision: {type: 'string'; title: string; enum: string[]; enumNames: string[]};
    };
    required: string[];
  };
}

/** Sends the question (elicitation/create) and reads the answer; withdrawn when `signal` aborts. */
export type AskClient = (
  question: ClientQuestion,
  signal: AbortSignal,
  timeoutMs: number,
) => Promise<ClientAnswer>;

const DECISIONS = ['allow', 'deny', 'inspector'] as const;

/** The question about one held call, in the words the Log uses for it. */
export function holdQuestion(call: HeldCall): ClientQuestion {
  const line = describeCall({tool: call.tool, args: call.args}, {fullUrls: true});
  const page =
    call.pageId === undefined
      ? ''
      : ` on page ${call.pageId}${call.pageUrl === undefined ? '' : ` (${describeUrl(call.pageUrl)})`}`;
  return {
    message: `Allow ${line}${page}? It is held by the rule ${call.rule}. Allow, Deny, or Edit in the inspector (MCP Browser Inspector) to change its arguments or decide there.`,
    requestedSchema: {
      type: 'object',
      properties: {
        decision: {
          type: 'string',
          title: 'Decision',
          enum: [...DECISIONS],
          enumNames: ['Allow', 'Deny', 'Edit in the inspector'],
        },
      },
      required: ['decision'],
    },
  };
}

function describeUrl(url: string): string {
  const line = url.replace(/\s+/g, ' ');
  return line.length > 120 ? `${line.slice(0, 119)}…` : line;
}

/**
 * The client's answer: Allow or Deny chosen (declining the question denies too); "Edit in the
 * inspector", a dismissed question or anything else leaves the call to the inspector.
 */
export function readAnswer(result: unknown): ClientAnswer {
  if (!isRecord(result)) {
    return undefined;
  }
  if (result.action === 'decline') {
    return 'deny';
  }
  if (result.action !== 'accept' || !isRecord(result.content)) {
    return undefined;
  }
  const decision = result.content.decision;
  return decision === 'allow' || decision === 'deny' ? decision : undefined;
}

/** Whether the client's capabilities include form elicitation (an empty object means form). */
export function supportsFormElicitation(capabilities: unknown): boolean {
  if (!isRecord(capabilities) || !isRecord(capabilities.elicitation)) {
    return false;
  }
  const elicitation = capabilities.elicitation;
  return Object.keys(elicitation).length === 0 || elicitation.form !== undefined;
}
