/**
 * The events the tree probe listens to (capturing, on the window): ones that can change what the
 * tree shows without a DOM mutation. Each counts toward the reading; what it changed goes to the
 * change log: its target's subtree, the focus, the whole document, or only that style rules that
 * follow hover and the like may now match (`dynamic`).
 */
import {fullBecause, markDirty, markFocus, type TreeProbe} from './probeState.js';

/** Events that can change what the tree shows without a DOM mutation. */
const PROBE_EVENTS = [
  'input',
  'change',
  'beforeinput',
  'focusin',
  'focusout',
  'focus',
  'blur',
  'toggle',
  'beforetoggle',
  'close',
  'cancel',
  'scroll',
  'wheel',
  'resize',
  'transitionrun',
  'transitionstart',
  'transitionend',
  'transitioncancel',
  'animationstart',
  'animationend',
  'animationiteration',
  'animationcancel',
  'mouseover',
  'mouseout',
  'mousedown',
  'mouseup',
  'click',
  'dblclick',
  'contextmenu',
  'pointerdown',
  'pointerup',
  'pointerover',
  'pointerout',
  'keydown',
  'keyup',
  'compositionend',
  'paste',
  'cut',
  'dragstart',
  'dragend',
  'drop',
  'touchstart',
  'touchend',
  'load',
  'error',
  'hashchange',
  'popstate',
  'pageshow',
  'visibilitychange',
  'fullscreenchange',
  'submit',
  'reset',
  'invalid',
  'play',
  'pause',
  'ended',
  'seeked',
  'timeupdate',
  'volumechange',
  'ratechange',
  'durationchange',
  'loadedmetadata',
];

/** Events whose effect stays inside their target's subtree (state the target itself shows). */
const TARGET_EVENTS = new Set([
  'input',
  'change',
  'invalid',
  'reset',
  'submit',
  'toggle',
  'load',
  'error',
  'play',
  'pause',
  'ended',
  'seeked',
  'timeupdate',
  'volumechange',
  'ratechange',
  'durationchange',
  'loadedmetadata',
  'transitionrun',
  'transitionstart',
  'transitionend',
  'transitioncancel',
  'animationstart',
  'animationend',
  'animationiteration',
  'animationcancel',
]);

/** Events after which nothing can be scoped: the whole layout or document may differ. */
const UNSCOPED_EVENTS = new Set(['resize', 'pageshow', 'fullscreenchange']);

/** Events that change no state the tree shows by themselves (their handlers' changes are logged). */
const QUIET_EVENTS = new Set([
  'scroll',
  'wheel',
  'visibilitychange',
  'popstate',
  'beforeinput',
  'cancel',
]);

const FOCUS_EVENTS = new Set(['focusin', 'focusout', 'focus', 'blur']);

/** Media features whose change restyles the whole document. */
const MEDIA_QUERIES = [
  '(prefers-color-scheme: dark)',
  '(prefers-reduced-motion: reduce)',
  '(prefers-contrast: more)',
  '(forced-colors: active)',
  'print',
];

/** The element an event was dispatched to (through shadow roots), if it is one. */
function elementTarget(event: Event): Element | undefined {
  const target = event.composedPath()[0];
  return target instanceof Element ? target : undefined;
}

function noteEvent(probe: TreeProbe, event: Event): void {
  probe.n++;
  const type = event.type;
  if (TARGET_EVENTS.has(type)) {
    const target = elementTarget(event);
    if (target) {
      markDirty(probe, target, 'tree');
    }
  } else if (FOCUS_EVENTS.has(type)) {
    // Even a moment's focus shows (a focused node is exposed inside aria-hidden).
    const target = elementTarget(event);
    if (target) {
      markFocus(probe, target);
    }
    probe.dynamic = true;
  } else if (UNSCOPED_EVENTS.has(type)) {
    fullBecause(probe, type);
  } else if (!QUIET_EVENTS.has(type)) {
    // Hover, focus, presses, keys, :target: state only style rules would show (changeScope.ts).
    probe.dynamic = true;
  }
}

/** Starts listening for the probe; the function that stops it. */
export function listenForProbe(probe: TreeProbe): () => void {
  const onEvent = (event: Event): void => {
    noteEvent(probe, event);
  };
  const onMedia = (): void => {
    probe.n++;
    fullBecause(probe, 'media');
  };
  for (const type of PROBE_EVENTS) {
    addEventListener(type, onEvent, {capture: true, passive: true});
  }
  const queries = MEDIA_QUERIES.map(query => matchMedia(query));
  for (const query of queries) {
    query.addEventListener('change', onMedia);
  }
  return () => {
    for (const type of PROBE_EVENTS) {
      removeEventListener(type, onEvent, {capture: true});
    }
    for (const query of queries) {
      query.removeEventListener('change', onMedia);
    }
  };
}
