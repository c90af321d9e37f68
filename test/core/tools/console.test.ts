import {describe, expect, it} from 'vitest';
import {call, useEngineWithFixtures, waitFor} from '../../helpers/engine.js';

const fx = useEngineWithFixtures({
  routes: server => {
    // No favicon 404 noise in the error lists.
    server.route('/favicon.ico', (_request, response) => {
      response.writeHead(204).end();
    });
  },
});

async function listUntil(
  pageId: number,
  fragment: string,
  args: Record<string, unknown> = {},
): Promise<string> {
  return waitFor(
    async () => {
      const {text} = await call(fx.client, 'list_console_messages', {pageId, ...args});
      return text.includes(fragment) ? text : undefined;
    },
    10_000,
    `console output containing ${fragment}`,
  );
}

function msgidOf(listing: string, fragment: string): number {
  const line = listing.split('\n').find(l => l.startsWith('msgid=') && l.includes(fragment));
  if (!line) {
    throw new Error(`No message containing ${fragment} in:\n${listing}`);
  }
  return Number(/^msgid=(\d+)/.exec(line)?.[1]);
}

describe('list_console_messages', () => {
  it('lists every console method with its type, text and argument count', async () => {
    const id = await fx.openPage('/console-all.html');
    const text = await listUntil(id, 'after repeats');
    const expected = [
      "[log] hello Ada, you are 42 {id: 7, name: 'Ada'} [1, 2, 3] (5 args)",
      '[debug] debug message',
      '[info] info message',
      '[error] error message',
      '[warn] warn message',
      '[dir] {dir: true}',
      '[dirxml] body',
      '[table] [{a: 1}]',
      '[trace] trace message',
      '[assert] Assertion failed: assertion message',
      '[count] clicks: 1',
      '[startGroup] group label',
      '[endGroup] console.groupEnd',
      '[startGroupCollapsed] collapsed label',
      '[log] multi\\nline',
    ];
    const lines = text.split('\n').filter(line => line.startsWith('msgid='));
    for (const fragment of expected) {
      expect(
        lines.some(line => line.endsWith(fragment)),
        fragment,
      ).toBe(true);
    }
    expect(text).toMatch(/^msgid=\d+ \[timeEnd\] timer: [\d.]+ ms$/m);
    expect(text).toMatch(
      /^## Console messages\nShowing 1-\d+ of \d+ \(Page 1 of 1\)\.\nmsgid=1 \[log\] hello/,
    );
    // No stack traces unless asked for.
    expect(text).not.toMatch(/^ {2}at /m);
  });

  it('groups consecutive repeats and keeps ids stable', async () => {
    const id = await fx.openPage('/console-all.html?repeats');
    const text = await listUntil(id, 'after repeats');
    const repeated = msgidOf(text, 'repeated line');
    expect(text).toContain(`msgid=${repeated} [log] repeated line [3 times]`);
    // The group hides the two repeats' ids; the next message has the id after them.
    expect(text).toContain(`msgid=${repeated + 3} [log] after repeats`);
    const again = await call(fx.client, 'list_console_messages', {pageId: id});
    expect(msgidOf(again.text, 'repeated line')).toBe(repeated);
  });

  it('adds stack traces on request, 1-based', async () => {
    const id = await fx.openPage('/console-all.html?stacks');
    const text = await listUntil(id, 'after repeats', {includeStackTraces: true});
    const url = fx.server.url('/console-all.html?stacks');
    expect(text).toContain(
      `[trace] trace message\n  at traced (${url}:22:17)\n  at <anonymous> (${url}:24:7)\n`,
    );
    expect(text).toContain(`(5 args)\n  at greet (${url}:11:17)\n  at <anonymous> (${url}:13:7)`);
    expect(
      text.trimEnd().endsWith('Note: stack trace line and column numbers use 1-based indexing'),
    ).toBe(true);
  });

  it('filters by type', async () => {
    const id = await fx.openPage('/console-all.html?filter');
    await listUntil(id, 'after repeats');
    const {text} = await call(fx.client, 'list_console_messages', {
      pageId: id,
      types: ['warn', 'error'],
    });
    const lines = text.split('\n').filter(line => line.startsWith('msgid='));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/\[error\] error message/);
    expect(lines[1]).toMatch(/\[warn\] warn message/);

    const none = await call(fx.client, 'list_console_messages', {pageId: id, types: ['profile']});
    expect(none.text).toContain('## Console messages\n<no console messages found>');

    const bad = await call(fx.client, 'list_console_messages', {pageId: id, types: ['shout']});
    expect(bad.isError).toBe(true);
  });

  it('pages through the grouped list and notes an invalid page', async () => {
    const id = await fx.openPage('/console-all.html?paging');
    const all = await listUntil(id, 'after repeats');
    const allLines = all.split('\n').filter(line => line.startsWith('msgid='));
    const total = allLines.length;
    expect(all).toContain(`Showing 1-${total} of ${total} (Page 1 of 1).`);

    const second = await call(fx.client, 'list_console_messages', {
      pageId: id,
      pageSize: 5,
      pageIdx: 1,
    });
    const pages = Math.ceil(total / 5);
    expect(second.text).toContain(
      `Showing 6-10 of ${total} (Page 2 of ${pages}).\nNext page: 2\nPrevious page: 0`,
    );
    expect(second.text.split('\n').filter(line => line.startsWith('msgid='))).toEqual(
      allLines.slice(5, 10),
    );

    const last = await call(fx.client, 'list_console_messages', {
      pageId: id,
      pageSize: 5,
      pageIdx: pages - 1,
    });
    expect(last.text).not.toContain('Next page');
    expect(last.text).toContain(`Previous page: ${pages - 2}`);

    const invalid = await call(fx.client, 'list_console_messages', {
      pageId: id,
      pageSize: 5,
      pageIdx: 50,
    });
    expect(invalid.text).toContain(
      `Invalid page number provided. Showing first page.\nShowing 1-5 of ${total} (Page 1 of ${pages}).`,
    );
  });

  it('includes uncaught exceptions and unhandled rejections as errors', async () => {
    const id = await fx.openPage('/console-errors.html');
    const text = await listUntil(id, 'errors done', {includeStackTraces: true});
    const url = fx.server.url('/console-errors.html');
    expect(text).toMatch(/^msgid=\d+ \[error\] caught: Error: logged error \(2 args\)$/m);
    expect(text).toMatch(
      new RegExp(
        `^msgid=\\d+ \\[error\\] Uncaught Error: outer failure\\n  at failDeep \\(${url.replace(/[.?]/g, '\\$&')}:12:15\\)\\n  Caused by: TypeError: inner cause$`,
        'm',
      ),
    );
    expect(text).toMatch(/^msgid=\d+ \[error\] Uncaught \(in promise\) Error: rejected promise$/m);

    const errorsOnly = await call(fx.client, 'list_console_messages', {
      pageId: id,
      types: ['error'],
    });
    const lines = errorsOnly.text.split('\n').filter(line => line.startsWith('msgid='));
    expect(lines).toHaveLength(3);
    expect(errorsOnly.text).not.toContain('errors done');
  });

  it('keeps messages of the last 3 navigations on request, with their ids', async () => {
    const id = await fx.openPage('/console-nav.html?a');
    const first = await listUntil(id, 'loaded ?a');
    const aId = msgidOf(first, 'loaded ?a');
    const ids: Record<string, number> = {};
    for (const step of ['b', 'c', 'd', 'e']) {
      const nav = await call(fx.client, 'navigate_page', {
        pageId: id,
        url: fx.server.url(`/console-nav.html?${step}`),
      });
      expect(nav.isError, nav.text).toBe(false);
      ids[step] = msgidOf(await listUntil(id, `loaded ?${step}`), `loaded ?${step}`);
    }
    const current = await call(fx.client, 'list_console_messages', {pageId: id});
    expect(current.text).toContain(`msgid=${ids.e} [log] loaded ?e`);
    expect(current.text).not.toContain('loaded ?d');

    const preserved = await call(fx.client, 'list_console_messages', {
      pageId: id,
      includePreservedMessages: true,
    });
    const lines = preserved.text.split('\n').filter(line => line.startsWith('msgid='));
    expect(lines).toEqual([
      `msgid=${ids.b} [log] loaded ?b`,
      `msgid=${ids.c} [log] loaded ?c`,
      `msgid=${ids.d} [log] loaded ?d`,
      `msgid=${ids.e} [log] loaded ?e`,
    ]);

    const old = await call(fx.client, 'get_console_message', {pageId: id, msgid: ids.b});
    expect(old.text).toContain('Message: log> loaded ?b');
    const gone = await call(fx.client, 'get_console_message', {pageId: id, msgid: aId});
    expect(gone.isError).toBe(true);
    expect(gone.text).toContain(
      `Error: No console message with msgid ${aId} on page ${id}. Messages are kept for the current and last 3 navigations; call list_console_messages to see the msgids.`,
    );
  });

  it('shows DevTools issues as [issue] entries', async () => {
    const id = await fx.openPage('/console-issues.html');
    const text = await listUntil(id, 'should have an id or name attribute');
    expect(text).toMatch(
      /^msgid=\d+ \[issue\] Page layout may be unexpected due to Quirks Mode \(count: 1\)$/m,
    );
    expect(text).toMatch(
      /^msgid=\d+ \[issue\] A form field element should have an id or name attribute \(count: 1\)$/m,
    );
    const issuesOnly = await call(fx.client, 'list_console_messages', {
      pageId: id,
      types: ['issue'],
    });
    expect(issuesOnly.text).not.toContain('issues page loaded');
    expect(issuesOnly.text.split('\n').filter(line => line.startsWith('msgid='))).toHaveLength(2);

    const detail = await call(fx.client, 'get_console_message', {
      pageId: id,
      msgid: msgidOf(text, 'Quirks Mode'),
    });
    expect(detail.text).toContain(
      'Message: issue> Page layout may be unexpected due to Quirks Mode',
    );
    expect(detail.text).toContain('<!DOCTYPE html>');
    expect(detail.text).toContain('### Affected resources\ndata={');
    expect(detail.text).toContain(`"url":"${fx.server.url('/console-issues.html')}"`);
  });

  it('explains that serviceWorkerId needs the extensions category', async () => {
    const id = await fx.openPage('/console-nav.html?sw');
    const {text, isError} = await call(fx.client, 'list_console_messages', {
      pageId: id,
      serviceWorkerId: 'sw-1',
    });
    expect(isError).toBe(true);
    expect(text).toContain('--categoryExtensions');
  });
});

describe('get_console_message', () => {
  it('shows arguments as values and the stack trace', async () => {
    const id = await fx.openPage('/console-all.html?detail');
    const listing = await listUntil(id, 'after repeats');
    const url = fx.server.url('/console-all.html?detail');
    const greeting = await call(fx.client, 'get_console_message', {
      pageId: id,
      msgid: msgidOf(listing, 'hello Ada'),
    });
    expect(greeting.isError).toBe(false);
    expect(greeting.text).toContain(
      [
        `ID: ${msgidOf(listing, 'hello Ada')}`,
        "Message: log> hello Ada, you are 42 {id: 7, name: 'Ada'} [1, 2, 3]",
        '### Arguments',
        'Arg #0: hello %s, you are %d',
        'Arg #1: Ada',
        'Arg #2: 42',
        'Arg #3: {"id":7,"name":"Ada"}',
        'Arg #4: [1,2,3]',
        '### Stack trace',
        `at greet (${url}:11:17)`,
        `at <anonymous> (${url}:13:7)`,
        'Note: line and column numbers use 1-based indexing',
      ].join('\n'),
    );

    const dirxml = await call(fx.client, 'get_console_message', {
      pageId: id,
      msgid: msgidOf(listing, '[dirxml]'),
    });
    expect(dirxml.text).toMatch(/Arg #0: <body>/);
  });

  it('shows the cause chain of uncaught and logged errors', async () => {
    const id = await fx.openPage('/console-errors.html?detail');
    const listing = await listUntil(id, 'errors done');
    const url = fx.server.url('/console-errors.html?detail');
    const uncaught = await call(fx.client, 'get_console_message', {
      pageId: id,
      msgid: msgidOf(listing, 'Uncaught Error: outer failure'),
    });
    expect(uncaught.text).toContain(
      [
        'Message: error> Uncaught Error: outer failure',
        '### Stack trace',
        `at failDeep (${url}:12:15)`,
        'Caused by: TypeError: inner cause',
        `at failDeep (${url}:11:23)`,
        'Caused by: RangeError: root cause',
        `at failDeep (${url}:10:22)`,
        'Note: line and column numbers use 1-based indexing',
      ].join('\n'),
    );

    const logged = await call(fx.client, 'get_console_message', {
      pageId: id,
      msgid: msgidOf(listing, 'caught: Error: logged error'),
    });
    expect(logged.text).toContain('Arg #0: caught:\nArg #1: Error: logged error\nat logError (');
    expect(logged.text).toContain('Caused by: Error: logged cause\nat logError (');

    const rejected = await call(fx.client, 'get_console_message', {
      pageId: id,
      msgid: msgidOf(listing, 'rejected promise'),
    });
    expect(rejected.text).toContain(
      'Message: error> Uncaught (in promise) Error: rejected promise',
    );
    expect(rejected.text).toContain(`### Stack trace\nat <anonymous> (${url}:19:22)`);
  });

  it('rejects unknown ids with the way forward', async () => {
    const id = await fx.openPage('/console-nav.html?unknown');
    const {text, isError} = await call(fx.client, 'get_console_message', {pageId: id, msgid: 4242});
    expect(isError).toBe(true);
    expect(text).toContain('No console message with msgid 4242');
    expect(text).toContain('call list_console_messages');
  });
});
