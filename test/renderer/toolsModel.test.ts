/**
 * The Tools panel's panel model (features/tools/toolsModel.ts).
 *
 * Tests: src/renderer/src/features/tools/toolsModel.ts
 */
import {describe, expect, it} from 'vitest';
import {
  categoryCards,
  categoryGroups,
  conditionCards,
  conditionGroups,
  INITIAL_TOOLS,
  reduceTools,
  toolsListSize,
  toolsTotals,
} from '../../src/renderer/src/features/tools/toolsModel.js';
import type {ToolsSlice} from '../../src/renderer/src/store/InspectorStore.js';
import type {ToolInfo} from '../../src/shared/protocol.js';

function tool(name: string, overrides: Partial<ToolInfo> = {}): ToolInfo {
  return {
    name,
    description: name,
    category: 'navigation',
    readOnly: true,
    enabled: true,
    inputSchema: {},
    definitionChars: 100,
    estimatedTokens: 25,
    ...overrides,
  };
}

const SLICE: ToolsSlice = {
  slim: false,
  categories: [
    {id: 'navigation', label: 'Navigation', enabled: true, offByDefault: false, flag: '--x'},
    {id: 'network', label: 'Network', enabled: false, offByDefault: false, flag: '--y'},
  ],
  conditions: [
    {
      id: 'experimentalVision',
      label: 'Vision',
      enabled: false,
      flag: '--experimentalVision',
      switchable: true,
    },
  ],
  tools: [
    tool('list_pages'),
    tool('click_at', {conditions: ['experimentalVision'], enabled: false}),
    tool('list_network_requests', {category: 'network', enabled: false}),
  ],
};

describe('Tools panel model', () => {
  it('groups tools by category and by the flag that gates them, with counts', () => {
    expect(
      categoryGroups(SLICE).map(group => [
        group.category.id,
        group.tools.map(item => item.name),
        group.enabledCount,
      ]),
    ).toEqual([
      ['navigation', ['list_pages', 'click_at'], 1],
      ['network', ['list_network_requests'], 0],
    ]);
    expect(
      conditionGroups(SLICE).map(group => [
        group.condition.id,
        group.tools.length,
        group.enabledCount,
      ]),
    ).toEqual([['experimentalVision', 1, 0]]);
  });

  it('draws a card per switch: the flag for the other state, what is pending, the note', () => {
    const cards = categoryCards(categoryGroups(SLICE), new Set(['network']));
    expect(cards.map(card => [card.target, card.flagHint, card.pending, card.note])).toEqual([
      [{kind: 'category', id: 'navigation'}, '--no-x', false, ''],
      [{kind: 'category', id: 'network'}, '--y', true, ''],
    ]);
    const flags = conditionCards(conditionGroups(SLICE), new Set());
    expect(flags[0]).toMatchObject({
      target: {kind: 'condition', id: 'experimentalVision'},
      switchable: true,
      flagHint: '--experimentalVision',
      note: ' · off by default',
    });
    const fixed = conditionCards(
      [
        {
          condition: {
            id: 'javascriptEvaluation',
            label: 'JavaScript',
            enabled: true,
            flag: '--no-javascript-evaluation',
            switchable: false,
          },
          tools: [],
          enabledCount: 0,
        },
      ],
      new Set(),
    );
    expect(fixed[0]).toMatchObject({
      switchable: false,
      flagHint: '--no-javascript-evaluation',
      note: ' · set when the server starts',
    });
    expect(fixed[0]?.effect).toBeUndefined();
    const [diffs] = conditionCards(
      [
        {
          condition: {
            id: 'snapshotDiffs',
            label: 'Snapshot diffs',
            enabled: false,
            flag: '--snapshotDiffs',
            switchable: true,
          },
          tools: [],
          enabledCount: 0,
        },
      ],
      new Set(),
    );
    // A flag that gates no tool says what it changes.
    expect(diffs?.effect).toMatch(/only the lines that changed.*full=true/);
  });

  it('totals only what clients are offered', () => {
    expect(toolsTotals(SLICE.tools)).toEqual({enabledTools: 1, totalChars: 100, totalTokens: 25});
  });

  it('marks a switch pending until answered, and keeps the refusal', () => {
    const target = {kind: 'category', id: 'network'} as const;
    const pending = reduceTools(INITIAL_TOOLS, {type: 'switching', target});
    expect(pending.pending.has('network')).toBe(true);
    const refused = reduceTools(pending, {type: 'switched', target, error: 'Not in --slim.'});
    expect(refused.pending.size).toBe(0);
    expect(refused.error).toBe('Not in --slim.');
    const flag = {kind: 'condition', id: 'experimentalVision'} as const;
    const next = reduceTools(refused, {type: 'switching', target: flag});
    expect(next.error).toBeUndefined();
    expect(next.pendingConditions.has('experimentalVision')).toBe(true);
    expect(
      reduceTools(next, {type: 'switched', target: flag, error: undefined}).pendingConditions.size,
    ).toBe(0);
  });

  it('shows the tools/list a client receives, with its size, or why it could not', () => {
    const list = {tools: [{name: 'list_pages', description: 'Lists pages.'}]};
    const compact = JSON.stringify(list);
    expect(toolsListSize(list)).toEqual({
      json: JSON.stringify(list, null, 2),
      toolCount: 1,
      chars: compact.length,
      estimatedTokens: Math.ceil(compact.length / 4),
    });
    const open = reduceTools(INITIAL_TOOLS, {type: 'toolsListOpen', open: true});
    const failed = reduceTools(open, {type: 'toolsList', result: {ok: false, error: 'gone'}});
    expect(failed).toMatchObject({toolsListOpen: true, toolsListError: 'gone'});
    const shown = reduceTools(failed, {type: 'toolsList', result: {ok: true, value: list}});
    expect(shown.toolsListError).toBeUndefined();
    expect(shown.toolsList?.toolCount).toBe(1);
  });
});
