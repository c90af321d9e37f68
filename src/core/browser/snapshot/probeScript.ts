/**
 * The probe the snapshot installs in each document's isolated world (the page's own scripts cannot
 * see or tamper with it), as in-page source. One MutationObserver (document and open shadow roots)
 * and capturing listeners feed two things:
 *
 * - a reading, `document:counter:fingerprint`: DOM mutations and events that can change what the
 *   tree shows, plus a fingerprint of state that changes without either (form values set by
 *   script, the focused element, the viewport, style sheet rules). Equal readings mean the tree is
 *   still the same (the snapshot cache).
 * - a change log since the last tree was taken (the incremental tree): which nodes changed and
 *   how, or why the change cannot be scoped (see changeScript.ts, which reads it).
 */

/** Events that can change what the tree shows without a DOM mutation. */
export const PROBE_EVENTS = [
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
const TARGET_EVENTS = [
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
];

/** Events after which nothing can be scoped: the whole layout or document may differ. */
const UNSCOPED_EVENTS = ['resize', 'pageshow', 'fullscreenchange'];

/** Events that change no state the tree shows by themselves (their handlers' changes are logged). */
const QUIET_EVENTS = ['scroll', 'wheel', 'visibilitychange', 'popstate', 'beforeinput', 'cancel'];

const MEDIA_QUERIES = [
  '(prefers-color-scheme: dark)',
  '(prefers-reduced-motion: reduce)',
  '(prefers-contrast: more)',
  '(forced-colors: active)',
  'print',
];

/** Attributes that name other elements by id: what they point at shows in the pointing element. */
export const IDREF_ATTRIBUTES = [
  'aria-labelledby',
  'aria-labeledby',
  'aria-describedby',
  'aria-activedescendant',
  'aria-controls',
  'aria-details',
  'aria-errormessage',
  'aria-flowto',
  'for',
  'list',
  'headers',
  'popovertarget',
  'commandfor',
  'interestfor',
  'form',
  'anchor',
];

/** Dirty nodes kept before a change counts as too large to scope. */
const DIRTY_LIMIT = 600;

/**
 * An expression that evaluates to the document's probe, installing it the first time. A probe of
 * another version (a newer engine on a browser it connected to) is replaced.
 */
export const PROBE = `(() => {
  const g = globalThis;
  const V = 4;
  const old = g.__mbiProbe;
  if (old && old.v === V) return old;
  if (old && old.observer) old.observer.disconnect();
  if (old && old.off) old.off();
  const probe = {
    v: V, n: 0, roots: new Set(), ids: new WeakMap(), next: 1, undefinedElements: new Set(),
    doc: Math.random().toString(36).slice(2),
    // The change log since the last take (changeScript.ts).
    epoch: 0, dirty: new Map(), removed: [], full: '', custom: false, owns: false, dynamic: false,
    fieldStates: new WeakMap(), focus: null, href: location.href, viewport: '', sheetsKey: '', css: null,
  };
  const RANK = {self: 1, children: 2, attr: 3, tree: 4, text: 5};
  const IDREF = new Set(${JSON.stringify(IDREF_ATTRIBUTES)});
  const fullBecause = reason => { if (!probe.full) { probe.full = reason; probe.dirty.clear(); probe.removed.length = 0; } };
  const mark = (node, kind) => {
    if (!node || probe.full) return;
    if (node.nodeType === 11) node = node.host;
    if (!node || (node.nodeType !== 1 && node.nodeType !== 3)) { fullBecause('document'); return; }
    const had = probe.dirty.get(node);
    if (!had || RANK[kind] > RANK[had]) probe.dirty.set(node, kind);
    if (probe.dirty.size > ${DIRTY_LIMIT}) fullBecause('many changes');
  };
  probe.mark = mark;
  // A focused element inside aria-hidden is exposed, and with it what Chromium exposes around it:
  // focus that enters or leaves such a subtree is read with the whole subtree.
  probe.markFocus = el => {
    let hidden = null;
    for (let node = el, depth = 0; node && depth < 512; depth++) {
      if (node.nodeType === 1 && node.getAttribute('aria-hidden') === 'true') hidden = node;
      node = node.parentNode && node.parentNode.nodeType === 11 ? node.parentNode.host : node.parentNode;
    }
    if (hidden) mark(hidden, 'tree');
    else mark(el, 'self');
  };
  const isSheet = el => el.nodeType === 1 && (el.localName === 'style' || el.localName === 'link');
  const holdsSheet = el => el.nodeType === 1 && (isSheet(el) || !!el.querySelector('style,link'));
  const FRAMES = new Set(['iframe', 'frame', 'object', 'embed', 'base', 'link', 'style', 'meta']);
  const byId = (from, id) => { const root = from.getRootNode(); return root.getElementById ? root.getElementById(id) : null; };
  const note = records => {
    for (const record of records) {
      if (probe.full) return;
      const target = record.target;
      if (record.type === 'childList') {
        if (target.nodeType === 9) { fullBecause('document'); return; }
        if (isSheet(target)) { fullBecause('style sheet'); return; }
        for (const node of record.removedNodes) {
          if (holdsSheet(node)) { fullBecause('style sheet'); return; }
          if (node.nodeType === 1) { if (probe.removed.length < 200) probe.removed.push(node); else probe.removedMany = true; }
        }
        for (const node of record.addedNodes) {
          if (holdsSheet(node)) { fullBecause('style sheet'); return; }
          if (node.nodeType === 1 || node.nodeType === 3) mark(node, 'tree');
        }
        const list = target.localName === 'ol' || target.localName === 'ul' || target.localName === 'menu';
        mark(target, list ? 'tree' : 'children');
      } else if (record.type === 'characterData') {
        const parent = target.parentNode;
        if (parent && isSheet(parent)) { fullBecause('style sheet'); return; }
        mark(target, 'text');
      } else {
        const name = record.attributeName || '';
        if (FRAMES.has(target.localName)) { fullBecause('frame or style element'); return; }
        if (name === 'aria-owns') { fullBecause('aria-owns'); return; }
        if (name === 'open' && target.localName === 'dialog') { fullBecause('dialog'); return; }
        if (name === 'id') {
          if (record.oldValue) probe.removedIds = (probe.removedIds || new Set()).add(record.oldValue);
        } else if (IDREF.has(name)) {
          const tokens = ((record.oldValue || '') + ' ' + (target.getAttribute(name) || '')).split(/\\s+/);
          for (const token of tokens) if (token) mark(byId(target, token), 'tree');
        }
        if (name === 'slot' || (name === 'value' && target.localName === 'li')) mark(target.parentNode, 'tree');
        mark(target, 'attr');
      }
    }
  };
  const flush = () => { const records = probe.observer.takeRecords(); probe.n += records.length; note(records); };
  probe.flush = flush;
  const options = {subtree: true, childList: true, attributes: true, characterData: true, attributeOldValue: true};
  const scan = start => {
    const walker = document.createTreeWalker(start, NodeFilter.SHOW_ELEMENT);
    for (let el = walker.currentNode; el; el = walker.nextNode()) {
      if (el.shadowRoot && !probe.roots.has(el.shadowRoot)) watch(el.shadowRoot);
      const tag = el.localName;
      if (tag && tag.includes('-')) {
        probe.custom = true;
        // A custom element not defined yet changes when it is upgraded, without a mutation.
        if (!el.matches(':defined')) probe.undefinedElements.add(el);
      }
      if (el.hasAttribute && el.hasAttribute('aria-owns')) probe.owns = true;
    }
  };
  const observer = new MutationObserver(records => {
    probe.n += records.length;
    note(records);
    for (const record of records) for (const node of record.addedNodes) if (node.nodeType === 1) scan(node);
  });
  const watch = root => { probe.roots.add(root); observer.observe(root, options); scan(root); };
  probe.observer = observer;
  // Live collections: Chromium keeps their contents until the DOM changes, so reading the form
  // state of a quiet page does not walk the document.
  probe.fields = ['input', 'textarea', 'select'].map(tag => document.getElementsByTagName(tag));
  watch(document);
  const TARGET = new Set(${JSON.stringify(TARGET_EVENTS)});
  const UNSCOPED = new Set(${JSON.stringify(UNSCOPED_EVENTS)});
  const QUIET = new Set(${JSON.stringify(QUIET_EVENTS)});
  const FOCUS = new Set(['focusin', 'focusout', 'focus', 'blur']);
  const onEvent = event => {
    probe.n++;
    const type = event.type;
    if (TARGET.has(type)) {
      const target = event.composedPath()[0];
      if (target && target.nodeType === 1) mark(target, 'tree');
    } else if (FOCUS.has(type)) {
      // Even a moment's focus shows (a focused node is exposed inside aria-hidden).
      const target = event.composedPath()[0];
      if (target && target.nodeType === 1) probe.markFocus(target);
      probe.dynamic = true;
    } else if (UNSCOPED.has(type)) {
      fullBecause(type);
    } else if (!QUIET.has(type)) {
      // Hover, focus, presses, keys, :target: state only style rules would show (changeScript.ts).
      probe.dynamic = true;
    }
  };
  const bump = () => { probe.n++; fullBecause('media'); };
  const events = ${JSON.stringify(PROBE_EVENTS)};
  for (const type of events) g.addEventListener(type, onEvent, {capture: true, passive: true});
  const queries = ${JSON.stringify(MEDIA_QUERIES)}.map(query => g.matchMedia(query));
  for (const query of queries) query.addEventListener('change', bump);
  probe.off = () => {
    for (const type of events) g.removeEventListener(type, onEvent, {capture: true});
    for (const query of queries) query.removeEventListener('change', bump);
  };
  probe.deepActive = () => {
    let active = document.activeElement;
    while (active && active.shadowRoot && active.shadowRoot.activeElement) active = active.shadowRoot.activeElement;
    return active;
  };
  probe.fieldState = el => {
    let text = String(el.value) + '|' + (el.checked ? 'c' : '') + (el.indeterminate ? 'i' : '') + (el.disabled ? 'd' : '');
    if (el.selectedOptions) for (const option of el.selectedOptions) text += '|' + probe.idOf(option);
    return text;
  };
  probe.idOf = el => {
    if (!el) return 0;
    let id = probe.ids.get(el);
    if (!id) { id = probe.next++; probe.ids.set(el, id); }
    return id;
  };
  probe.eachField = visit => {
    for (const collection of probe.fields) for (const el of collection) visit(el);
    for (const root of probe.roots) {
      if (root === document || !root.host.isConnected) continue;
      for (const el of root.querySelectorAll('input,textarea,select')) visit(el);
    }
  };
  probe.read = () => {
    flush();
    let h = 0x811c9dc5;
    const mix = text => {
      const s = String(text);
      for (let i = 0; i < s.length; i++) { h ^= s.charCodeAt(i); h = Math.imul(h, 16777619); }
      h ^= 10; h = Math.imul(h, 16777619);
    };
    mix(probe.idOf(probe.deepActive()));
    mix(g.innerWidth + 'x' + g.innerHeight);
    probe.eachField(el => {
      mix(el.value);
      mix((el.checked ? 'c' : '') + (el.indeterminate ? 'i' : '') + (el.disabled ? 'd' : ''));
      if (el.selectedOptions) for (const option of el.selectedOptions) mix(probe.idOf(option));
    });
    let rules = 0;
    for (const root of probe.roots) {
      if (root !== document && !root.host.isConnected) continue;
      for (const sheet of [...root.styleSheets, ...(root.adoptedStyleSheets || [])]) {
        try { rules += sheet.cssRules.length + (sheet.disabled ? 0.5 : 0); } catch { rules += 0.25; }
      }
    }
    let undefinedElements = 0;
    for (const el of probe.undefinedElements) {
      if (!el.isConnected || el.matches(':defined')) { probe.undefinedElements.delete(el); probe.n++; mark(el, 'tree'); }
      else undefinedElements++;
    }
    mix(rules + '/' + undefinedElements);
    return probe.doc + ':' + probe.n + ':' + (h >>> 0);
  };
  probe.eachField(el => probe.fieldStates.set(el, probe.fieldState(el)));
  probe.focus = probe.deepActive();
  g.__mbiProbe = probe;
  return probe;
})()`;

/** Installs the probe once per document and returns its reading. */
export const READ_PROBE = `${PROBE}.read()`;
