import {describe, expect, it} from 'vitest';
import type {PageInfo} from '../../../src/shared/protocol.js';
import {FileAccess} from '../../../src/core/files/FileAccess.js';
import {renderResponse, type PageListSource} from '../../../src/core/mcp/render.js';
import {ResponseBuilder, SECTION_ORDER} from '../../../src/core/tools/base/ResponseBuilder.js';

const files = new FileAccess([], {clientRoots: () => Promise.resolve([])});

function pageList(infos: PageInfo[], note?: string): PageListSource {
  let pending = note;
  return {
    infos: () => infos,
    takeSelectionNote: () => {
      const taken = pending;
      pending = undefined;
      return taken;
    },
  };
}

const noPages = pageList([]);

function textOf(result: Awaited<ReturnType<typeof renderResponse>>): string {
  const [first] = result.content;
  return first?.type === 'text' ? first.text : '';
}

describe('renderResponse', () => {
  it('puts notes first, then lines, the navigation, sections in order, and the error last', async () => {
    const response = new ResponseBuilder(false);
    response.notes.push('Note: the browser was restarted.');
    response.appendLine('Clicked.');
    response.setNavigatedTo('http://127.0.0.1/next');
    response.addSection(SECTION_ORDER.consoleList, () => '## Console');
    response.addSection(SECTION_ORDER.emulation, () => '## Emulation');
    response.addSection(SECTION_ORDER.networkList, () => Promise.resolve('## Network'));
    response.setError(new Error('Something failed.'));
    const result = await renderResponse(response, noPages, files);
    expect(textOf(result)).toBe(
      [
        'Note: the browser was restarted.',
        'Clicked.',
        'Page navigated to http://127.0.0.1/next.',
        '## Emulation',
        '## Network',
        '## Console',
        'Error: Something failed.',
      ].join('\n'),
    );
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
  });

  it('a failing section says so in its place; empty sections are left out', async () => {
    const response = new ResponseBuilder(false);
    response.addSection(SECTION_ORDER.trace, () => Promise.reject(new Error('trace broke')));
    response.addSection(SECTION_ORDER.heap, () => undefined);
    response.addSection(SECTION_ORDER.detail, () => 'detail');
    const result = await renderResponse(response, noPages, files);
    expect(textOf(result)).toBe('Error: trace broke\ndetail');
    expect(result.isError).toBeUndefined();
  });

  it('lists pages with titles cut at 50 characters, the selection, contexts and extension pages', async () => {
    const response = new ResponseBuilder(false);
    response.includePages();
    response.extensionWorkers = [{id: 'sw-1', url: 'chrome-extension://abc/worker.js'}];
    const long = 'T'.repeat(60);
    const pages = pageList(
      [
        {id: 1, url: 'http://127.0.0.1/a', title: 'A', selected: false},
        {id: 2, url: 'http://127.0.0.1/b', title: long, selected: true},
        {id: 3, url: 'about:blank', title: 'about:blank', selected: false, isolatedContext: 'x'},
        {id: 4, url: 'chrome-extension://abc/popup.html', title: '', selected: false},
      ],
      'Note: the previously selected page was closed. Page 2 is now selected.',
    );
    const result = await renderResponse(response, pages, files);
    expect(textOf(result)).toBe(
      [
        'Note: the previously selected page was closed. Page 2 is now selected.',
        '## Pages',
        '1: A (http://127.0.0.1/a)',
        `2: ${'T'.repeat(50)}... (http://127.0.0.1/b) [selected]`,
        '3: about:blank isolatedContext=x',
        '## Extension Pages',
        '4: chrome-extension://abc/popup.html',
        '## Extension Service Workers',
        'sw-1: chrome-extension://abc/worker.js',
      ].join('\n'),
    );
    // The selection note is told once.
    const again = new ResponseBuilder(false);
    again.includePages();
    expect(textOf(await renderResponse(again, pages, files))).not.toContain('Note:');
  });

  it('returns structured content only when the call succeeded, and images after the text', async () => {
    const response = new ResponseBuilder(false);
    response.structured.pages = [];
    response.attachImage({data: 'AAAA', mimeType: 'image/png'});
    const ok = await renderResponse(response, noPages, files);
    expect(ok.structuredContent).toEqual({pages: []});
    expect(ok.content).toEqual([
      {type: 'text', text: ''},
      {type: 'image', data: 'AAAA', mimeType: 'image/png'},
    ]);
    response.setError(new Error('x'));
    const failed = await renderResponse(response, noPages, files);
    expect(failed.structuredContent).toBeUndefined();
    expect(failed.isError).toBe(true);
  });

  it('slim responses carry only notes, lines and the error', async () => {
    const response = new ResponseBuilder(true);
    response.notes.push('note');
    response.appendLine('line');
    response.includePages();
    response.addSection(SECTION_ORDER.detail, () => 'never shown');
    response.setError(new Error('bad'));
    const result = await renderResponse(
      response,
      pageList([{id: 1, url: 'u', title: '', selected: true}]),
      files,
    );
    expect(textOf(result)).toBe('note\nline\nError: bad');
    expect(result.isError).toBe(true);
  });
});
