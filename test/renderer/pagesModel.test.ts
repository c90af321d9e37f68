/**
 * The Pages panel's panel model (features/pages/pagesModel.ts); the outline is in panels.test.ts.
 *
 * Tests: src/renderer/src/features/pages/pagesModel.ts
 */
import {describe, expect, it} from 'vitest';
import {
  INITIAL_PAGES,
  pageGroups,
  reducePages,
  selectLiveView,
} from '../../src/renderer/src/features/pages/pagesModel.js';
import type {LiveFrame, PageInfo} from '../../src/shared/protocol.js';

const PAGES: PageInfo[] = [
  {id: 1, url: 'about:blank', title: '', selected: false},
  {id: 2, url: 'https://a/', title: 'A', selected: true},
];
const frameOf = (pageId: number): LiveFrame => ({
  pageId,
  mimeType: 'image/jpeg',
  data: `p${pageId}`,
  viewport: {width: 100, height: 100},
});
const acted = {
  pageId: 2,
  rect: {x: 10, y: 10, width: 20, height: 20},
  callId: 'c1',
  tool: 'click',
  receivedAt: 5,
};

describe('Pages panel model', () => {
  it('follows the selected page: shows the newest frame, whatever its page', () => {
    const state = reducePages(INITIAL_PAGES, {type: 'frame', frame: frameOf(2)});
    expect(selectLiveView(state, PAGES, undefined)).toEqual({
      watchPageId: undefined,
      frame: frameOf(2),
      outline: undefined,
    });
  });

  it('shows only frames of the page the user picked, while it is open', () => {
    const watching = reducePages(INITIAL_PAGES, {type: 'watch', pageId: 1});
    const other = reducePages(watching, {type: 'frame', frame: frameOf(2)});
    expect(selectLiveView(other, PAGES, undefined)).toMatchObject({
      watchPageId: 1,
      frame: undefined,
    });
    const own = reducePages(other, {type: 'frame', frame: frameOf(1)});
    expect(selectLiveView(own, PAGES, undefined).frame).toEqual(frameOf(1));
    // The picked page closed: back to following the selected one.
    expect(selectLiveView(other, PAGES.slice(1), undefined)).toMatchObject({
      watchPageId: undefined,
      frame: frameOf(2),
    });
  });

  it('outlines what a tool acted on over its page’s frame, until its moment is over', () => {
    const state = reducePages(INITIAL_PAGES, {type: 'frame', frame: frameOf(2)});
    expect(selectLiveView(state, PAGES, acted).outline).toMatchObject({key: 'c1', tool: 'click'});
    const expired = reducePages(state, {type: 'outlineExpired', key: 'c1'});
    expect(selectLiveView(expired, PAGES, acted).outline).toBeUndefined();
    // A newer action brings it back.
    expect(selectLiveView(expired, PAGES, {...acted, callId: 'c2'}).outline?.key).toBe('c2');
  });

  it('keeps the live view’s error until the next answer', () => {
    const failed = reducePages(INITIAL_PAGES, {type: 'liveView', error: 'No page.'});
    expect(failed.liveError).toBe('No page.');
    expect(reducePages(failed, {type: 'liveView', error: undefined}).liveError).toBeUndefined();
  });
});

describe('pages grouped by the client that opened them', () => {
  it("puts the person's pages first, then each client's, and says who selected what", () => {
    const pages: PageInfo[] = [
      {id: 1, url: 'about:blank', title: '', selected: true, selectedBy: ['b']},
      {
        id: 2,
        url: 'https://a/',
        title: 'A',
        selected: false,
        owner: {id: 'a', name: 'alice', isolated: true},
        selectedBy: ['a', 'gone-client'],
      },
      {
        id: 3,
        url: 'https://b/',
        title: 'B',
        selected: false,
        owner: {id: 'b', name: 'bob', isolated: false},
      },
      {
        id: 4,
        url: 'https://a/2',
        title: 'A2',
        selected: false,
        owner: {id: 'a', name: 'alice', isolated: true},
      },
      {
        id: 5,
        url: 'https://c/',
        title: 'C',
        selected: false,
        owner: {id: 'c', name: 'carol', isolated: false},
      },
    ];
    const clients = [
      {id: 'a', name: 'alice'},
      {id: 'b', name: 'bob'},
    ];
    const groups = pageGroups(pages, clients);
    expect(
      groups.map(group => [group.owner?.name, group.gone, group.pages.map(p => p.id)]),
    ).toEqual([
      [undefined, false, [1]],
      ['alice', false, [2, 4]],
      ['bob', false, [3]],
      ['carol', true, [5]],
    ]);
    expect(groups[0]?.pages[0]?.selectedByClients).toEqual([{id: 'b', name: 'bob'}]);
    // A client that is gone is not named as selecting anything.
    expect(groups[1]?.pages[0]?.selectedByClients).toEqual([{id: 'a', name: 'alice'}]);
  });
});
