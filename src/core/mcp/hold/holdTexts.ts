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

/** A call whose page kept changing under it while it waited: held often enough. */
export function keptChangingText(reason: string): string {
  return `Not run: the page kept changing while this call waited for approval (${reason}). Call list_pages to see where the page is now, then retry.`;
}

/** One client has as many held calls as it may: this one is refused, not queued. */
export function tooManyHeldText(clientName: string, max: number): string {
  return `Not run: ${clientName} already has ${max} calls waiting for approval in the inspector, the most one client may have held at once. Wait until the user has decided on them (each returns its own result), then send this call again.`;
}

export interface StoppedNavigation {
  url: string;
  redirectedFrom: string | undefined;
  /** A new tab the page opened, not the page itself. */
  newTab?: true;
  rule: string;
  page: {id: number; url: string};
}

/** A navigation into a held URL the user did not approve, stopped before the page loaded it. */
export function stoppedNavigationText(stopped: StoppedNavigation): string {
  const target = shownUrl(stopped.url);
  const opened = stopped.newTab === true;
  const how =
    stopped.redirectedFrom !== undefined
      ? `${shownUrl(stopped.redirectedFrom)} redirected ${opened ? `a tab page ${stopped.page.id} opened ` : ''}to ${target}`
      : opened
        ? `this call made page ${stopped.page.id} open a new tab at ${target}`
        : `this call made page ${stopped.page.id} navigate to ${target}`;
  const stays = opened
    ? 'The new tab did not load it and stays blank'
    : `The page did not load it and stays at ${shownUrl(stopped.page.url)}`;
  return `Stopped: ${how}, which the hold rule ${shownUrl(stopped.rule)} holds and the user has not approved for this call. ${stays}. To go there, call navigate_page with that URL: the user is asked first in the inspector.`;
}

function shownUrl(url: string): string {
  return url.length > 300 ? `${url.slice(0, 300)}… (${url.length} characters)` : url;
}
