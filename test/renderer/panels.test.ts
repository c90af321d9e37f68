/**
 * Tests: src/renderer/src/features/connection/clientSetup.ts,
 *   src/renderer/src/features/tools/schemaParams.ts, src/renderer/src/ui/DataImage.tsx,
 *   src/renderer/src/ui/schemaValidator.ts
 */
import {describe, expect, it} from 'vitest';
import {clientSetups, SERVER_NAME} from '../../src/renderer/src/features/connection/clientSetup.js';
import {HIGHLIGHT_MS, outlineFor} from '../../src/renderer/src/features/pages/pagesModel.js';
import {toolParams} from '../../src/renderer/src/features/tools/schemaParams.js';
import {cleanArgs} from '../../src/renderer/src/ui/argumentsDraft.js';
import {imageDataUrl} from '../../src/renderer/src/ui/DataImage.js';
import {cfWorkerValidator, validate} from '../../src/renderer/src/ui/schemaValidator.js';

describe('client setup snippets', () => {
  const setups = clientSetups('http://127.0.0.1:7624/mcp', 'TOKEN123');
  const byId = (id: string): string => setups.find(setup => setup.id === id)?.text ?? '';

  it('Claude Code: claude mcp add for the user scope, with the bearer header', () => {
    expect(SERVER_NAME).toBe('mcp-browser-inspector');
    expect(byId('claude-code')).toBe(
      `claude mcp add --scope user --transport http ${SERVER_NAME} http://127.0.0.1:7624/mcp --header "Authorization: Bearer TOKEN123"`,
    );
  });

  it('Cursor, VS Code and Gemini CLI: their own JSON shapes', () => {
    expect(JSON.parse(byId('cursor'))).toEqual({
      mcpServers: {
        [SERVER_NAME]: {
          url: 'http://127.0.0.1:7624/mcp',
          headers: {Authorization: 'Bearer TOKEN123'},
        },
      },
    });
    expect(JSON.parse(byId('vscode'))).toEqual({
      servers: {
        [SERVER_NAME]: {
          type: 'http',
          url: 'http://127.0.0.1:7624/mcp',
          headers: {Authorization: 'Bearer TOKEN123'},
        },
      },
    });
    expect(JSON.parse(byId('gemini'))).toEqual({
      mcpServers: {
        [SERVER_NAME]: {
          httpUrl: 'http://127.0.0.1:7624/mcp',
          headers: {Authorization: 'Bearer TOKEN123'},
        },
      },
    });
  });
});

describe('live view outline', () => {
  const acted = {
    pageId: 2,
    rect: {x: 100, y: 50, width: 200, height: 100},
    callId: 'c',
    tool: 'click',
    receivedAt: 1_000,
  };
  const frame = {pageId: 2, mimeType: 'image/jpeg', data: '', viewport: {width: 1000, height: 500}};

  it('places the rect as fractions of the viewport', () => {
    const outline = outlineFor(acted, frame, 1_100);
    expect(outline).toMatchObject({key: 'c', tool: 'click', left: 0.1, top: 0.1});
    expect(outline?.width).toBeCloseTo(0.2);
    expect(outline?.height).toBeCloseTo(0.2);
  });

  it('shows nothing for another page, without a viewport, or after a moment', () => {
    expect(outlineFor(acted, {...frame, pageId: 3}, 1_100)).toBeUndefined();
    expect(outlineFor(acted, {pageId: 2, mimeType: 'image/jpeg', data: ''}, 1_100)).toBeUndefined();
    expect(outlineFor(acted, frame, 1_000 + HIGHLIGHT_MS + 1)).toBeUndefined();
  });
});

describe('tool parameters and run arguments', () => {
  it('lists parameters with types and required marks', () => {
    expect(
      toolParams({
        type: 'object',
        properties: {
          url: {type: 'string', description: 'Where to go'},
          type: {enum: ['url', 'back']},
          paths: {type: 'array', items: {type: 'string'}},
        },
        required: ['url'],
      }),
    ).toEqual([
      {name: 'url', type: 'string', required: true, description: 'Where to go'},
      {name: 'type', type: '"url" | "back"', required: false, description: ''},
      {name: 'paths', type: 'string[]', required: false, description: ''},
    ]);
  });

  it('drops empty optional values before running', () => {
    expect(cleanArgs({url: 'https://a', timeout: undefined, name: ''})).toEqual({url: 'https://a'});
  });
});

describe('schema validator without eval', () => {
  const schema = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object' as const,
    properties: {url: {type: 'string' as const}, timeout: {type: 'integer' as const, minimum: 0}},
    required: ['url'],
    additionalProperties: false,
  };

  it('accepts valid data', () => {
    expect(validate(schema, {url: 'https://example.com', timeout: 5})).toEqual([]);
    expect(cfWorkerValidator.isValid(schema, {url: 'x'}, schema)).toBe(true);
  });

  it('reports errors on the field they belong to', () => {
    const result = cfWorkerValidator.validateFormData({timeout: -1}, schema);
    const properties = result.errors.map(error => error.property).sort();
    expect(properties).toEqual(['.timeout', '.url']);
    expect(result.errorSchema.url?.__errors).toEqual(['is a required property']);
  });
});

describe('images from tools', () => {
  it('become data URLs only for raster types with a clean base64 payload', () => {
    expect(imageDataUrl('image/png', 'iVBORw0KGgo=')).toBe('data:image/png;base64,iVBORw0KGgo=');
    expect(imageDataUrl('image/svg+xml', 'PHN2Zz4=')).toBeUndefined();
    expect(imageDataUrl('image/png', 'abc"onerror="x')).toBeUndefined();
    expect(imageDataUrl('image/png', '')).toBeUndefined();
  });
});

describe('page- and client-supplied text', () => {
  it('shows bidi and invisible characters visibly, in labels only (names and values unchanged)', async () => {
    const {revealInvisible} = await import('../../src/renderer/src/ui/revealInvisible.js');
    const {displaySchema} = await import('../../src/renderer/src/ui/SchemaForm.js');
    expect(revealInvisible('a\u202Eb\u2066c\u2069d\u202Ae')).toBe(
      'a⟨U+202E⟩b⟨U+2066⟩c⟨U+2069⟩d⟨U+202A⟩e',
    );
    const shown = displaySchema({
      type: 'object',
      title: 'Pay\u202Eyou',
      properties: {
        'amount\u202E': {type: 'number', description: 'in \u2067EUR'},
        note: {type: 'string', title: 'N\u202Dote', enum: ['x\u202Ey']},
      },
    });
    expect(shown.title).toBe('Pay⟨U+202E⟩you');
    const properties = shown.properties ?? {};
    // The property name (sent back as is) is unchanged; its label shows the character.
    expect(Object.keys(properties)).toEqual(['amount\u202E', 'note']);
    expect(properties['amount\u202E']).toEqual({
      type: 'number',
      description: 'in ⟨U+2067⟩EUR',
      title: 'amount⟨U+202E⟩',
    });
    expect(properties.note).toEqual({type: 'string', title: 'N⟨U+202D⟩ote', enum: ['x\u202Ey']});
  });
});

describe('the panel registry', () => {
  it('has one entry per panel id, in tab order, and wires panel slots without import side effects', async () => {
    const {PANELS, PANEL_SLOT_FILLS} = await import('../../src/renderer/src/app/panels.js');
    const {PANEL_IDS} = await import('../../src/renderer/src/ui/panelIds.js');
    expect(PANELS.map(panel => panel.id)).toEqual([...PANEL_IDS]);
    expect(new Set(PANELS.map(panel => panel.label)).size).toBe(PANELS.length);
    // The Recordings panel fills the Log's recordedCall slot ("Replay up to here"), declared in
    // its registry entry; no other panel claims that slot.
    const fillers = PANELS.filter(panel => panel.fills?.recordedCall !== undefined);
    expect(fillers.map(panel => panel.id)).toEqual(['recordings']);
    expect(PANEL_SLOT_FILLS.recordedCall).toBe(fillers[0]?.fills?.recordedCall);
  });
});
