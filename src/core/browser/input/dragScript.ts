/**
 * Where the dragged element sits among its neighbours, read before the drag and after it (in the
 * page: src/injected/dragPlace.ts), so the answer says where it ended up instead of a bare
 * success: the shape of the reading and the sentence made of it.
 */
import {z} from 'zod';

/** What DRAG_PLACE (src/injected/dragPlace.ts) answers. */
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
