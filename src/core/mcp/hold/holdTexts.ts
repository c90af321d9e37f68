/**
 * What the agent reads about a hold: how a person changed its arguments, why a call was denied,
 * and that nobody decided in time. Each says whether the call ran and what to do next.
 */

function shown(value: unknown): string {
  const text = JSON.stringify(value);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/** The changed, added and removed arguments, one phrase each. */
export function describeArgChanges(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): string[] {
  const changes: string[] = [];
  for (const [key, value] of Object.entries(after)) {
    if (!(key in before)) {
      changes.push(`${key} added: ${shown(value)}`);
    } else if (shown(before[key]) !== shown(value)) {
      changes.push(`${key} ${shown(before[key])} → ${shown(value)}`);
    }
  }
  for (const key of Object.keys(before)) {
    if (!(key in after)) {
      changes.push(`${key} removed (was ${shown(before[key])})`);
    }
  }
  return changes;
}

export function editedNote(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): string {
  const changes = describeArgChanges(before, after);
  return changes.length === 0
    ? 'Note: the user reviewed this call in the inspector and ran it with your arguments unchanged.'
    : `Note: the user changed your arguments in the inspector before this call ran: ${changes.join('; ')}. The result below is of the changed call.`;
}

export function deniedText(reason: string | undefined): string {
  const given = reason?.trim() ?? '';
  return `Denied by the user: ${given === '' ? 'no reason given' : given}\nThe call did not run. Do not retry it unchanged; ask the user or take another approach.`;
}

export function timedOutText(timeoutMs: number): string {
  const seconds = Math.round(timeoutMs / 100) / 10;
  return `Denied: the call was held for approval in the inspector and nobody decided within ${seconds} s (--holdTimeout), so it did not run. Ask the user to watch the inspector, then retry.`;
}
