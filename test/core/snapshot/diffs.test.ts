/**
 * Snapshot diffs (--snapshotDiffs): a client session's repeat snapshot of a page answers with the
 * lines that changed, which, applied to its last whole snapshot, give exactly the whole snapshot;
 * per client session, whole again after a navigation or when asked, and the same for replies that
 * append a snapshot. Off, every reply is as without the flag.
 *
 * Tests: src/core/browser/snapshot/diffs.ts, src/core/tools/snapshot.ts
 */
import type {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {describe, expect, it} from 'vitest';
import {call, startEngine, useEngineWithFixtures} from '../../helpers/engine.js';
import {applySnapshotDiff, isSnapshotDiff} from '../../helpers/snapshotDiff.js';
import {uidOf} from '../../helpers/snapshotText.js';

const fx = useEngineWithFixtures({flags: ['--snapshotDiffs']});

const HEADER = '## Latest page snapshot\n';

async function snapshot(client: Client, pageId: number, extra = {}): Promise<string> {
  const result = await call(client, 'take_snapshot', {pageId, ...extra});
  expect(result.isError, result.text).toBe(false);
  const at = result.text.indexOf(HEADER);
  expect(at).toBeGreaterThanOrEqual(0);
  return result.text.slice(at + HEADER.length);
}

async function run(client: Client, pageId: number, source: string): Promise<void> {
  const result = await call(client, 'evaluate_script', {pageId, function: source});
  expect(result.isError, result.text).toBe(false);
}

describe('snapshot diffs', () => {
  it('answers a repeat snapshot with the changed lines, which lead to the whole snapshot', async () => {
    const id = await fx.openPage('/aria/changes.html');
    const first = await snapshot(fx.client, id);
    expect(isSnapshotDiff(first)).toBe(false);
    await run(
      fx.client,
      id,
      '() => { document.getElementById("text").firstChild.data = "Second text"; document.getElementById("toggle").remove(); const b = document.createElement("button"); b.textContent = "Added"; document.body.prepend(b); }',
    );
    const diff = await snapshot(fx.client, id);
    expect(isSnapshotDiff(diff), diff).toBe(true);
    expect(diff.split('\n')[0]).toBe(
      '1 changed, 1 added, 1 removed since your last snapshot (full=true for the whole tree)',
    );
    expect(diff).toMatch(/^~ \d+ "Second text" \(in \d+\)$/m);
    expect(diff).toMatch(/^\+ \(in 0, first\)\n \d+ button "Added"$/m);
    const toggle = /^ *(\d+) button "Toggle target"/m.exec(first)?.[1];
    expect(diff).toMatch(new RegExp(`^- ${toggle} \\(in 0\\)$`, 'm'));
    const whole = await snapshot(fx.client, id, {full: true});
    expect(isSnapshotDiff(whole)).toBe(false);
    expect(applySnapshotDiff(first, diff)).toBe(whole);
    // Nothing changed since: one line says so.
    expect(await snapshot(fx.client, id)).toBe(
      'No changes since your last snapshot (full=true for the whole tree)',
    );
  });

  it('keeps what each client session saw apart', async () => {
    const id = await fx.openPage('/aria/changes.html');
    await snapshot(fx.client, id);
    const other = await fx.engine.connect('other-client');
    const theirs = await snapshot(other, id);
    expect(isSnapshotDiff(theirs)).toBe(false);
    expect(isSnapshotDiff(await snapshot(fx.client, id))).toBe(true);
    expect(isSnapshotDiff(await snapshot(other, id))).toBe(true);
    await other.close();
  });

  it('is whole after a navigation, and for a verbose snapshot the first time', async () => {
    const id = await fx.openPage('/aria/changes.html');
    await snapshot(fx.client, id);
    expect(isSnapshotDiff(await snapshot(fx.client, id, {verbose: true}))).toBe(false);
    expect(isSnapshotDiff(await snapshot(fx.client, id, {verbose: true}))).toBe(true);
    const navigated = await call(fx.client, 'navigate_page', {
      pageId: id,
      type: 'url',
      url: fx.server.url('/aria/changes.html?again'),
    });
    expect(navigated.isError, navigated.text).toBe(false);
    expect(isSnapshotDiff(await snapshot(fx.client, id))).toBe(false);
  });

  it('answers a snapshot appended to an action the same way', async () => {
    const id = await fx.openPage('/aria/changes.html');
    const first = await snapshot(fx.client, id);
    const clicked = await call(fx.client, 'click', {
      pageId: id,
      uid: uidOf(first, 'checkbox "Box"'),
      includeSnapshot: true,
    });
    expect(clicked.isError, clicked.text).toBe(false);
    const appended = clicked.text.slice(clicked.text.indexOf(HEADER) + HEADER.length);
    expect(isSnapshotDiff(appended), appended).toBe(true);
    expect(appended).toMatch(/^~ \d+ checkbox "Box" checked focused \(in \d+\)$/m);
    expect(applySnapshotDiff(first, appended)).toBe(await snapshot(fx.client, id, {full: true}));
  });

  it('leads to the whole snapshot over random changes in the page and its frames', async () => {
    const id = await fx.openPage('/incremental/page.html');
    const other = await fx.engine.connect('whole-snapshots');
    let known = await snapshot(fx.client, id);
    for (let step = 0; step < 40; step++) {
      await run(fx.client, id, `() => mutate(${7000 + step}, ${1 + (step % 3)})`);
      const answer = await snapshot(fx.client, id);
      const whole = await snapshot(other, id, {full: true});
      known = isSnapshotDiff(answer) ? applySnapshotDiff(known, answer) : answer;
      expect(known, `step ${step}:\n${answer}`).toBe(whole);
    }
    await other.close();
  });
});

describe('snapshot diffs off (the default)', () => {
  it('answers every snapshot whole, and take_snapshot has no full parameter', async () => {
    const engine = await startEngine();
    try {
      const client = await engine.connect();
      const {tools} = await client.listTools();
      const schema = tools.find(tool => tool.name === 'take_snapshot')?.inputSchema;
      expect(Object.keys(schema?.properties ?? {})).not.toContain('full');
      const opened = await call(client, 'new_page', {url: fx.server.url('/aria/changes.html')});
      const id = Number(/^(\d+): .*\[selected\]/m.exec(opened.text)?.[1]);
      const first = await snapshot(client, id);
      await run(
        client,
        id,
        '() => { document.getElementById("text").firstChild.data = "Changed"; }',
      );
      const second = await snapshot(client, id);
      expect(isSnapshotDiff(second)).toBe(false);
      expect(second).toBe(first.replace('"First text"', '"Changed"'));
      const refused = await call(client, 'take_snapshot', {pageId: id, full: true});
      expect(refused.isError).toBe(true);
      // The inspector's switch turns it on for the next call, with the parameter.
      engine.engine.catalog.setConditionEnabled('snapshotDiffs', true);
      const listed = await client.listTools();
      const on = listed.tools.find(tool => tool.name === 'take_snapshot')?.inputSchema;
      expect(Object.keys(on?.properties ?? {})).toContain('full');
    } finally {
      await engine.stop();
    }
  });
});
