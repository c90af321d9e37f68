/**
 * What the snapshot reads from each document besides its accessibility tree, in an isolated world
 * (the page's own scripts cannot see or tamper with it):
 *
 * - a change probe: a counter of DOM mutations (document and open shadow roots) and of events
 *   that can change what the tree shows (input, focus, toggles, hover, scroll, animations…), plus
 *   a fingerprint of state that changes without either (form values set by script, the focused
 *   element, viewport size, style sheet rules). Equal readings mean the tree is still the same.
 * - the elements with `aria-current`, `aria-sort` or `aria-valuetext`, which the AX properties do
 *   not carry (or, for the last, not always).
 */
import {z} from 'zod';
import {evaluateInDocument, sendsAtOnce, type DocumentRef} from './documentWorld.js';
import {inPage, PROBE_TIMEOUT_MS} from './evaluation.js';
import type {PageState} from './PageState.js';

const OBJECT_GROUP = 'mcp-browser-inspector-marks';

const EVENTS = [
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

const MEDIA_QUERIES = [
  '(prefers-color-scheme: dark)',
  '(prefers-reduced-motion: reduce)',
  '(prefers-contrast: more)',
  '(forced-colors: active)',
  'print',
];

/**
 * Installs the probe once per document and returns `document:counter:fingerprint`. The document
 * part is drawn when the probe is installed, so a new document never reads like the one before
 * (a fresh probe on two quiet documents would otherwise read the same).
 */
const READ_PROBE = `(() => {
  const g = globalThis;
  let probe = g.__mbiProbe;
  if (!probe) {
    probe = {n: 0, roots: new Set(), ids: new WeakMap(), next: 1, undefinedElements: new Set(), doc: Math.random().toString(36).slice(2)};
    const bump = () => { probe.n++; };
    const options = {subtree: true, childList: true, attributes: true, characterData: true};
    const scan = start => {
      const walker = document.createTreeWalker(start, NodeFilter.SHOW_ELEMENT);
      for (let el = walker.currentNode; el; el = walker.nextNode()) {
        if (el.shadowRoot && !probe.roots.has(el.shadowRoot)) watch(el.shadowRoot);
        // A custom element not defined yet changes when it is upgraded, without a mutation.
        if (el.localName && el.localName.includes('-') && !el.matches(':defined')) probe.undefinedElements.add(el);
      }
    };
    const observer = new MutationObserver(records => {
      probe.n += records.length;
      for (const record of records) for (const node of record.addedNodes) if (node.nodeType === 1) scan(node);
    });
    const watch = root => { probe.roots.add(root); observer.observe(root, options); scan(root); };
    probe.observer = observer;
    // Live collections: Chromium keeps their contents until the DOM changes, so reading the form
    // state of a quiet page does not walk the document.
    probe.fields = ['input', 'textarea', 'select'].map(tag => document.getElementsByTagName(tag));
    watch(document);
    for (const type of ${JSON.stringify(EVENTS)}) g.addEventListener(type, bump, {capture: true, passive: true});
    for (const query of ${JSON.stringify(MEDIA_QUERIES)}) g.matchMedia(query).addEventListener('change', bump);
    g.__mbiProbe = probe;
  }
  probe.n += probe.observer.takeRecords().length;
  let h = 0x811c9dc5;
  const mix = text => {
    const s = String(text);
    for (let i = 0; i < s.length; i++) { h ^= s.charCodeAt(i); h = Math.imul(h, 16777619); }
    h ^= 10; h = Math.imul(h, 16777619);
  };
  const idOf = el => {
    if (!el) return 0;
    let id = probe.ids.get(el);
    if (!id) { id = probe.next++; probe.ids.set(el, id); }
    return id;
  };
  let active = document.activeElement;
  while (active && active.shadowRoot && active.shadowRoot.activeElement) active = active.shadowRoot.activeElement;
  mix(idOf(active));
  mix(g.innerWidth + 'x' + g.innerHeight);
  const mixField = el => {
    mix(el.value);
    mix((el.checked ? 'c' : '') + (el.indeterminate ? 'i' : '') + (el.disabled ? 'd' : ''));
    if (el.selectedOptions) for (const option of el.selectedOptions) mix(idOf(option));
  };
  for (const collection of probe.fields) for (const el of collection) mixField(el);
  let rules = 0;
  for (const root of probe.roots) {
    if (root !== document) {
      if (!root.host.isConnected) continue;
      for (const el of root.querySelectorAll('input,textarea,select')) mixField(el);
    }
    for (const sheet of [...root.styleSheets, ...(root.adoptedStyleSheets || [])]) {
      try { rules += sheet.cssRules.length + (sheet.disabled ? 0.5 : 0); } catch { rules += 0.25; }
    }
  }
  let undefinedElements = 0;
  for (const el of probe.undefinedElements) {
    if (!el.isConnected || el.matches(':defined')) { probe.undefinedElements.delete(el); probe.n++; }
    else undefinedElements++;
  }
  mix(rules + '/' + undefinedElements);
  return probe.doc + ':' + probe.n + ':' + (h >>> 0);
})()`;

/** The elements whose aria-current or aria-sort the snapshot shows, or null. */
/**
 * The marked elements, as a flat list of element, info pairs. The info is '' for aria-current /
 * aria-sort / aria-valuetext, or, for a control that aria-hidden removes from the AX tree although
 * a sighted user sees and can click it, its role and name as JSON.
 */
const FIND_MARKED = `(() => {
  const probe = globalThis.__mbiProbe;
  const roots = probe ? [...probe.roots] : [document];
  const out = [];
  const CONTROLS = 'a[href],button,input:not([type=hidden]),select,textarea,summary,[role=button],[role=link],[role=checkbox],[role=tab],[role=menuitem],[role=option],[tabindex]:not([tabindex="-1"])';
  const roleOf = el => {
    const explicit = (el.getAttribute('role') || '').split(' ')[0];
    if (explicit) return explicit;
    const tag = el.localName;
    if (tag === 'a') return 'link';
    if (tag === 'select') return 'combobox';
    if (tag === 'textarea') return 'textbox';
    if (tag === 'summary') return 'DisclosureTriangle';
    if (tag === 'input') {
      const type = el.type;
      if (type === 'checkbox' || type === 'radio') return type;
      if (type === 'button' || type === 'submit' || type === 'reset' || type === 'image') return 'button';
      if (type === 'range') return 'slider';
      return 'textbox';
    }
    return tag === 'button' ? 'button' : 'generic';
  };
  const nameOf = el => {
    const label = el.getAttribute('aria-label') || (el.labels && el.labels[0] && el.labels[0].innerText) || '';
    const text = label || el.innerText || el.value || el.getAttribute('title') || el.getAttribute('placeholder') || el.getAttribute('alt') || '';
    return text.replace(/\\s+/g, ' ').trim().slice(0, 200);
  };
  // Outside the box of an ancestor that clips its overflow (an off-screen carousel slide).
  const clipped = (el, box) => {
    let node = el.parentElement;
    for (let depth = 0; node && depth < 40; depth++, node = node.parentElement) {
      const style = getComputedStyle(node);
      if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
      const outer = node.getBoundingClientRect();
      if (box.right <= outer.left || box.left >= outer.right || box.bottom <= outer.top || box.top >= outer.bottom) return true;
    }
    return false;
  };
  const seen = new Set();
  for (const root of roots) {
    if (root !== document && !root.host.isConnected) continue;
    for (const el of root.querySelectorAll('[aria-current]:not([aria-current="false"]),[aria-sort]:not([aria-sort="none"]),[aria-valuetext]')) out.push(el, '');
    for (const hidden of root.querySelectorAll('[aria-hidden="true"]')) {
      const candidates = hidden.matches(CONTROLS) ? [hidden, ...hidden.querySelectorAll(CONTROLS)] : hidden.querySelectorAll(CONTROLS);
      for (const el of candidates) {
        if (seen.has(el) || el.matches(':disabled')) continue;
        const box = el.getBoundingClientRect();
        if (box.width === 0 || box.height === 0 || !el.checkVisibility({visibilityProperty: true, opacityProperty: true})) continue;
        if (clipped(el, box)) continue;
        seen.add(el);
        out.push(el, JSON.stringify({role: roleOf(el), name: nameOf(el)}));
      }
    }
  }
  return out.length ? out : null;
})()`;

/**
 * Whether a probe of the document is sent at once, in the same turn, so that a command sent right
 * after it on the same cdp (the tree read) is answered after it.
 */
export function probeSendsAtOnce(doc: ProbeTarget): boolean {
  return sendsAtOnce(doc);
}

/** Bounded, and given up as soon as a JavaScript dialog blocks the page (evaluation.ts rules). */
export function raceDialog<T>(
  state: PageState,
  work: Promise<T>,
  timeoutMs = PROBE_TIMEOUT_MS,
): Promise<T> {
  return inPage(state, () => work, {timeoutMs, what: 'The page'});
}

export type ProbeTarget = DocumentRef;

/** The probe reading of one document, or undefined when it cannot be read (treated as changed). */
export async function readProbe(state: PageState, doc: ProbeTarget): Promise<string | undefined> {
  try {
    const {value} = await evaluateInDocument(state, doc, {
      expression: READ_PROBE,
      returnByValue: true,
    });
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

export interface HiddenControl {
  role: string;
  name: string;
}

export interface Marks {
  current: Map<number, string>;
  sort: Map<number, string>;
  valueText: Map<number, string>;
  /** Visible controls that aria-hidden takes out of the AX tree. */
  hiddenControls: Map<number, HiddenControl>;
}

const hiddenControlSchema = z.object({role: z.string(), name: z.string()});

const describeSchema = z.object({
  node: z.object({backendNodeId: z.number(), attributes: z.array(z.string()).optional()}),
});

function attribute(attributes: readonly string[] | undefined, name: string): string | undefined {
  const list = attributes ?? [];
  for (let index = 0; index + 1 < list.length; index += 2) {
    if (list[index] === name) {
      return list[index + 1];
    }
  }
  return undefined;
}

/** aria-current and aria-sort values by backend node id (empty when none or unreadable). */
export async function readMarks(state: PageState, doc: ProbeTarget): Promise<Marks> {
  const marks: Marks = {
    current: new Map(),
    sort: new Map(),
    valueText: new Map(),
    hiddenControls: new Map(),
  };
  try {
    const {objectId} = await evaluateInDocument(state, doc, {
      expression: FIND_MARKED,
      returnByValue: false,
      objectGroup: OBJECT_GROUP,
    });
    if (objectId === undefined) {
      return marks;
    }
    const {result} = await raceDialog(
      state,
      doc.cdp.send('Runtime.getProperties', {objectId, ownProperties: true}),
    );
    const byIndex = new Map(result.map(property => [property.name, property.value]));
    const pairs: {objectId: string; info: unknown}[] = [];
    for (let index = 0; byIndex.has(String(index)); index += 2) {
      const objectId = byIndex.get(String(index))?.objectId;
      if (objectId !== undefined) {
        pairs.push({objectId, info: byIndex.get(String(index + 1))?.value});
      }
    }
    const described = await Promise.all(
      pairs.map(async pair => ({
        info: pair.info,
        node: describeSchema.safeParse(
          await raceDialog(state, doc.cdp.send('DOM.describeNode', {objectId: pair.objectId})),
        ),
      })),
    );
    for (const {info, node} of described) {
      if (!node.success) {
        continue;
      }
      const {backendNodeId, attributes} = node.data.node;
      if (typeof info === 'string' && info !== '') {
        const parsed = hiddenControlSchema.safeParse(JSON.parse(info));
        if (parsed.success) {
          marks.hiddenControls.set(backendNodeId, parsed.data);
        }
        continue;
      }
      const current = attribute(attributes, 'aria-current')?.trim().toLowerCase();
      if (current !== undefined && current !== 'false') {
        marks.current.set(backendNodeId, current === '' ? 'true' : current);
      }
      const sort = attribute(attributes, 'aria-sort')?.trim().toLowerCase();
      if (sort !== undefined && sort !== 'none' && sort !== '') {
        marks.sort.set(backendNodeId, sort);
      }
      const valueText = attribute(attributes, 'aria-valuetext')?.trim();
      if (valueText) {
        marks.valueText.set(backendNodeId, valueText);
      }
    }
  } catch {
    // Without the marks the snapshot still shows everything the AX tree has.
  } finally {
    void doc.cdp
      .send('Runtime.releaseObjectGroup', {objectGroup: OBJECT_GROUP})
      .catch(() => undefined);
  }
  return marks;
}
