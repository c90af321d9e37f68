/**
 * Page- and client-supplied text shown in the inspector: bidi controls (U+202A–U+202E,
 * U+2066–U+2069), zero-width and other invisible characters are made visible as ⟨U+XXXX⟩, so
 * "gnp.exe" cannot pose as "exe.png" and a reversed URL cannot pose as another. Every panel that
 * shows such text (pages, log grid and detail, connection, WebMCP) goes through this one helper.
 */
const INVISIBLE = /[\u00AD\u061C\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/g;

export function revealInvisible(text: string): string {
  return text.replace(
    INVISIBLE,
    char => `⟨U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}⟩`,
  );
}
