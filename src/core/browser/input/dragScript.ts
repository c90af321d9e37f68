/**
 * The in-page half of drag: where the dragged element sits among its neighbours, read before the
 * drag and after it, so the answer says where it ended up instead of a bare success.
 */
import {z} from 'zod';

/**
 * Called on the dragged node with the target as argument. The dragged item is the outermost
 * ancestor with the same text (a list item around its label); its neighbours are the nearest
 * shown siblings with text. Labels are cut to 40 characters.
 */
export const DRAG_PLACE = `function (target) {
  const label = el => {
    if (!el || el.nodeType !== 1) return '';
    const text = el.getAttribute('aria-label') || el.textContent || '';
    return text.replace(/\\s+/g, ' ').trim().slice(0, 40);
  };
  let item = this.nodeType === 1 ? this : this.parentElement;
  if (!item || !item.isConnected) return {attached: false};
  for (let depth = 0; depth < 8; depth++) {
    const parent = item.parentElement;
    if (!parent || parent === document.body || parent.childElementCount !== 1 || label(parent) !== label(item)) break;
    item = parent;
  }
  const shown = el => el.checkVisibility() && label(el) !== '';
  const sibling = (from, step) => {
    let n = from[step];
    for (let count = 0; n && count < 64 && !shown(n); count++) n = n[step];
    return n && shown(n) ? n : null;
  };
  const previous = sibling(item, 'previousElementSibling');
  const next = sibling(item, 'nextElementSibling');
  const goal = target && target.nodeType === 1 ? target : target && target.parentElement;
  let container = item.parentElement;
  for (let depth = 0; container && depth < 8 && !container.getAttribute('aria-label') && container !== goal; depth++) container = container.parentElement;
  return {
    attached: true,
    name: label(item),
    previous: label(previous),
    next: label(next),
    container: label(container),
    target: label(goal),
    inTarget: !!goal && goal !== item && goal.contains(item) && !item.contains(goal),
    beforeTarget: !!goal && !!next && (next === goal || next.contains(goal)),
    afterTarget: !!goal && !!previous && (previous === goal || previous.contains(goal)),
  };
}`;

export const placeSchema = z.union([
  z.object({attached: z.literal(false)}),
  z.object({
    attached: z.literal(true),
    name: z.string(),
    previous: z.string(),
    next: z.string(),
    container: z.string(),
    target: z.string(),
    inTarget: z.boolean(),
    beforeTarget: z.boolean(),
    afterTarget: z.boolean(),
  }),
]);

export type Place = z.infer<typeof placeSchema>;

function between(place: Extract<Place, {attached: true}>): string {
  const {previous, next} = place;
  if (previous !== '' && next !== '') {
    return `between "${previous}" and "${next}"`;
  }
  if (next !== '') {
    return `first, before "${next}"`;
  }
  if (previous !== '') {
    return `last, after "${previous}"`;
  }
  return place.container === '' ? 'alone in its container' : `alone in "${place.container}"`;
}

/** The sentence the drag answers with: where the dragged element is now, against the target. */
export function describeDrop(before: Place, after: Place | undefined): string {
  const name = before.attached ? `"${before.name}"` : 'the element';
  if (!after?.attached) {
    return `Dragged ${name}: it is no longer on the page (the page removed or replaced it). Take a new snapshot (take_snapshot) to see the result.`;
  }
  const target = after.target === '' ? 'the target' : `"${after.target}"`;
  if (after.inTarget) {
    return `Dragged ${name}: it is now in ${target}.`;
  }
  if (after.beforeTarget) {
    return `Dragged ${name}: it is now before ${target}.`;
  }
  if (after.afterTarget) {
    return `Dragged ${name}: it is now after ${target}.`;
  }
  const where = between(after);
  if (before.attached && where === between(before) && after.container === before.container) {
    return `Dragged ${name} onto ${target}; the page did not move it: it is still ${where}. If the drop should have moved it, check with take_snapshot.`;
  }
  return `Dragged ${name}, but it ended up ${where}, not at ${target}. Take a new snapshot (take_snapshot) and drag again from there.`;
}
