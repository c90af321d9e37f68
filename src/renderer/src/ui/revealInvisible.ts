/**
 * Page- and client-supplied text shown in the inspector: bidi controls (U+202A–U+202E,
 * U+2066–U+2069, U+200E/F, U+061C), zero-width and other invisible format characters, control
 * characters other than tab and newline (C0, DEL, C1), line and paragraph separators, and tag
 * characters (U+E0000–U+E007F, invisible ASCII look-alikes) are made visible as ⟨U+XXXX⟩, so
 * "gnp.exe" cannot pose as "exe.png", a reversed URL cannot pose as another, and no text hides in
 * plain sight.
 *
 * Two ways in, one rule: `revealInvisible` for text a panel computes (JSON, form labels), and
 * `watchInvisible`, set on the document once at start, for everything the panels render: every
 * text node and every shown attribute (title, alt, aria-label, placeholder) of the page, whatever
 * panel put it there, now or later. Text a person edits or sends back is left as it is: fields
 * (textarea, input) and an option whose value is its text.
 */
/** The code points made visible, as inclusive ranges. */
const INVISIBLE_RANGES: readonly (readonly [number, number])[] = [
  [0x0000, 0x0008], // C0 controls, without tab (9) and newline (10)
  [0x000b, 0x001f],
  [0x007f, 0x009f], // DEL and C1 controls
  [0x00ad, 0x00ad], // soft hyphen
  [0x034f, 0x034f], // combining grapheme joiner
  [0x061c, 0x061c], // Arabic letter mark
  [0x115f, 0x1160], // Hangul fillers
  [0x17b4, 0x17b5], // Khmer inherent vowels
  [0x180b, 0x180f], // Mongolian variation selectors and vowel separator
  [0x200b, 0x200f], // zero-width space, joiners, LRM, RLM
  [0x2028, 0x202e], // line and paragraph separators, bidi embeddings and overrides
  [0x2060, 0x206f], // word joiner, invisible operators, bidi isolates, deprecated format
  [0x3164, 0x3164], // Hangul filler
  [0xfeff, 0xfeff], // zero-width no-break space (BOM)
  [0xffa0, 0xffa0], // halfwidth Hangul filler
  [0xfff9, 0xfffb], // interlinear annotation
  [0x1bca0, 0x1bca3], // shorthand format controls
  [0x1d173, 0x1d17a], // musical format controls
  [0xe0000, 0xe007f], // tags
];

const hex = (code: number): string => `\\u{${code.toString(16)}}`;
const CLASS = `[${INVISIBLE_RANGES.map(([from, to]) => `${hex(from)}-${hex(to)}`).join('')}]`;
const INVISIBLE = new RegExp(CLASS, 'gu');
const HAS_INVISIBLE = new RegExp(CLASS, 'u');

export function revealInvisible(text: string): string {
  return text.replace(
    INVISIBLE,
    char => `⟨U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}⟩`,
  );
}

export function hasInvisible(text: string): boolean {
  return HAS_INVISIBLE.test(text);
}

/** Attributes a person reads (tooltips, image text, what a screen reader says). */
const SHOWN_ATTRIBUTES = ['title', 'alt', 'aria-label', 'aria-description', 'placeholder'];

/** Text that is a value, not a label: changing it would change what is sent or edited. */
function isValueText(node: Node): boolean {
  const parent = node.parentElement;
  if (!parent) {
    return true;
  }
  if (parent.closest('textarea, input, script, style, [contenteditable]')) {
    return true;
  }
  const option = parent.closest('option');
  return option !== null && !option.hasAttribute('value');
}

function revealText(node: Node): void {
  const text = node.nodeValue;
  if (text !== null && hasInvisible(text) && !isValueText(node)) {
    node.nodeValue = revealInvisible(text);
  }
}

function revealAttributes(element: Element): void {
  for (const name of SHOWN_ATTRIBUTES) {
    const value = element.getAttribute(name);
    if (value !== null && hasInvisible(value)) {
      element.setAttribute(name, revealInvisible(value));
    }
  }
}

/** Every text node and shown attribute under `root`. */
export function revealInvisibleIn(root: Node): void {
  if (root.nodeType === Node.TEXT_NODE) {
    revealText(root);
    return;
  }
  if (root instanceof Element) {
    revealAttributes(root);
  }
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.nodeType === Node.TEXT_NODE) {
      revealText(node);
    } else if (node instanceof Element) {
      revealAttributes(node);
    }
  }
}

/**
 * Keeps everything rendered under `root` revealed: what is there now, and each change as it
 * happens (a MutationObserver runs before the next paint, so the raw form is never shown).
 * React writes text and attributes without reading them back, so this does not fight it; a text
 * it writes again is revealed again. Returns the stop function.
 */
export function watchInvisible(root: Node): () => void {
  revealInvisibleIn(root);
  const observer = new MutationObserver(records => {
    for (const record of records) {
      if (record.type === 'characterData') {
        revealText(record.target);
      } else if (record.type === 'attributes' && record.target instanceof Element) {
        revealAttributes(record.target);
      } else {
        record.addedNodes.forEach(revealInvisibleIn);
      }
    }
  });
  observer.observe(root, {
    subtree: true,
    childList: true,
    characterData: true,
    attributes: true,
    attributeFilter: SHOWN_ATTRIBUTES,
  });
  return () => observer.disconnect();
}
