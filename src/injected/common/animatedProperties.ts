/**
 * Animated properties (Web Animations keyframe names) whose change neither moves a box nor shows
 * in a snapshot: colors, fades, shadows. Settling does not wait for an animation of only these;
 * `visibility` is not among them: it hides and shows.
 */
export const UNSEEN_PROPERTIES: readonly string[] = [
  'opacity',
  'color',
  'backgroundColor',
  'borderColor',
  'borderTopColor',
  'borderRightColor',
  'borderBottomColor',
  'borderLeftColor',
  'outlineColor',
  'textDecorationColor',
  'caretColor',
  'accentColor',
  'boxShadow',
  'textShadow',
  'filter',
  'backdropFilter',
  'fill',
  'stroke',
];

/**
 * Animated properties whose change does not move a box: the unseen ones and `visibility` (it hides
 * and shows, but in place). The stillness rule of actions does not wait for an animation of only
 * these. Made on call: a spread at module level would be bundled into every script.
 */
export function boxKeepingProperties(): Set<string> {
  return new Set([...UNSEEN_PROPERTIES, 'visibility']);
}

/** Keyframe keys that are no property (a keyframe's timing and compositing). */
const KEYFRAME_META = new Set(['offset', 'computedOffset', 'easing', 'composite']);

/** Whether the effect animates a property outside `ignored`. */
export function animatesOtherThan(effect: AnimationEffect, ignored: ReadonlySet<string>): boolean {
  if (!isKeyframeEffect(effect)) {
    return false;
  }
  for (const frame of effect.getKeyframes()) {
    for (const key of Object.keys(frame)) {
      if (!KEYFRAME_META.has(key) && !ignored.has(key)) {
        return true;
      }
    }
  }
  return false;
}

function isKeyframeEffect(effect: AnimationEffect): effect is KeyframeEffect {
  return 'getKeyframes' in effect && typeof effect.getKeyframes === 'function';
}
