/**
 * The landing check's slot in a window: armed by the actionability check before a press, read or
 * disarmed after it (src/injected/landing.ts). One at a time, like a pointer.
 */
import {hitTest, preview, reaches} from './hitTest.js';
import {defineGlobalSlot, readGlobalSlot} from './globalSlot.js';

const LANDING_KEY = 'mcp-browser-inspector.landing';
/** An armed check expires by itself after this long, in case the press never comes. */
const ARMED_FOR_MS = 5_000;

interface ArmedLanding {
  target: Element;
  types: Set<string>;
  /** 'ok', what got the first event instead, or undefined before it. */
  result: string | undefined;
  expires: number;
}

export interface LandingSlot {
  armed: ArmedLanding | undefined;
  /** The event types a listener is installed for. */
  types: Set<string>;
}

function isLandingSlot(value: unknown): value is LandingSlot {
  return typeof value === 'object' && value !== null && 'armed' in value && 'types' in value;
}

/** This window's slot, if a check was ever armed here. */
export function landingSlot(): LandingSlot | undefined {
  const found = readGlobalSlot(LANDING_KEY);
  return isLandingSlot(found) ? found : undefined;
}

function hasPoint(event: Event): event is MouseEvent {
  return 'clientX' in event && typeof event.clientX === 'number';
}

/**
 * Arms the landing check: the first event of the press (of the given types, trusted: sent by the
 * browser) is hit-tested at its own point; if it would reach another element, it and the rest of
 * the press are stopped before the page sees them. One listener per type and window, installed
 * once; the armed slot expires by itself in case the press never comes (a dialog, a failure).
 */
export function armLanding(target: Element, types: readonly string[]): void {
  let slot = landingSlot();
  if (!slot) {
    slot = {armed: undefined, types: new Set()};
    defineGlobalSlot(LANDING_KEY, slot);
  }
  const listening = slot;
  for (const type of types) {
    if (listening.types.has(type)) {
      continue;
    }
    listening.types.add(type);
    addEventListener(
      type,
      event => {
        const armed = listening.armed;
        if (!armed || !event.isTrusted || !armed.types.has(event.type)) {
          return;
        }
        if (performance.now() > armed.expires) {
          listening.armed = undefined;
          return;
        }
        if (armed.result === undefined) {
          const at = hasPoint(event)
            ? hitTest(armed.target, event.clientX, event.clientY)
            : {hit: armed.target, under: [armed.target]};
          armed.result = reaches(armed.target, at.hit, at.under) ? 'ok' : preview(at.hit);
        }
        if (armed.result !== 'ok') {
          event.preventDefault();
          event.stopImmediatePropagation();
        }
      },
      {capture: true, passive: false},
    );
  }
  listening.armed = {
    target,
    types: new Set(types),
    result: undefined,
    expires: performance.now() + ARMED_FOR_MS,
  };
}
