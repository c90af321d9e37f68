/**
 * The page's declarative WebMCP forms (`<form toolname>`), read from the main frame's document:
 * the authoring lint needs the ones the browser did not register (no tooldescription), which no
 * CDP event reports. Bounded in time (raced against dialogs) and in size; the page's answer is
 * checked with zod, since the page's own scripts could have replaced the DOM methods.
 */
import {z} from 'zod';
import type {DeclarativeFormFacts} from '../../shared/webmcpLint.js';
import {evaluateInPage, PROBE_TIMEOUT_MS} from '../browser/evaluation.js';
import {callExpression} from '../browser/injectedCall.js';
import {READ_DECLARATIVE_FORMS} from '../browser/injectedSources.generated.js';
import type {PageState} from '../browser/pages/PageState.js';

const MAX_FORMS = 200;
const MAX_FIELDS = 100;
const NAME_LIMIT = 200;

/** The forms, bounded (src/injected/webmcpForms.ts). */
const READ_FORMS = callExpression(READ_DECLARATIVE_FORMS, MAX_FORMS, MAX_FIELDS, NAME_LIMIT);

const formsSchema = z
  .array(
    z.object({
      toolName: z.string(),
      hasDescription: z.boolean(),
      fields: z.array(z.object({name: z.string(), described: z.boolean()})),
    }),
  )
  .max(MAX_FORMS);

/** The main frame's forms; empty when the page could not be asked (busy, dialog, navigating). */
export async function declarativeForms(page: PageState): Promise<DeclarativeFormFacts[]> {
  try {
    const {result} = await evaluateInPage(
      page,
      {expression: READ_FORMS, returnByValue: true},
      {timeoutMs: PROBE_TIMEOUT_MS},
    );
    const parsed = formsSchema.safeParse(result.value);
    if (!parsed.success) {
      return [];
    }
    // Fields of one name (radio groups) are one parameter.
    return parsed.data.map(form => ({
      ...form,
      frameId: page.mainFrameId,
      fields: form.fields.filter(
        (field, index) => form.fields.findIndex(other => other.name === field.name) === index,
      ),
    }));
  } catch {
    return [];
  }
}
