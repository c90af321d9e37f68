/**
 * The scripted agent of bench/tasks.ts and bench/whole-tasks.ts: it takes a snapshot, looks for the
 * line it needs, and when the line is missing follows the snapshot's own hint or falls back to a
 * verbose snapshot; it counts the characters it reads (every tool answer) and the time the harness
 * spends around it (waiting for a page to mark itself ready, checking the page's state), so a
 * task's time is the agent's own.
 */
import {applySnapshotDiff, isSnapshotDiff} from '../test/helpers/snapshotDiff.js';
import {callTool, selectedPageId, type Server} from './lib.js';

const SNAPSHOT_HEADER = '## Latest page snapshot\n';

export class Agent {
  chars = 0;
  /** Milliseconds spent by the harness (readiness polls, state checks, frame waits), not the agent. */
  harnessMs = 0;
  /** Characters of the snapshots taken after the first (what diffs can save). */
  repeatChars = 0;
  snapshot = '';
  id = 0;
  /** The last whole snapshot of the page, default and verbose (what a diff applies to). */
  readonly #known = new Map<string, string>();
  constructor(readonly server: Server) {}

  /** take_snapshot, with a diff answer turned into the whole snapshot it stands for. */
  async snapshotOf(args: Record<string, unknown>): Promise<string> {
    const text = await this.tool('take_snapshot', args);
    const at = text.indexOf(SNAPSHOT_HEADER);
    if (at < 0 || args.uid !== undefined) {
      return text;
    }
    const body = text.slice(at + SNAPSHOT_HEADER.length);
    const kind = args.verbose === true ? 'verbose' : 'default';
    const whole = isSnapshotDiff(body)
      ? applySnapshotDiff(this.#known.get(kind) ?? '', body)
      : body;
    this.#known.set(kind, whole);
    return `${text.slice(0, at)}${SNAPSHOT_HEADER}${whole}`;
  }

  async tool(name: string, args: Record<string, unknown>): Promise<string> {
    const {text, isError} = await this.attempt(name, args);
    if (isError) {
      throw new Error(`${name}: ${text.slice(0, 300)}`);
    }
    return text;
  }

  /** A call whose failure the task itself judges (an action that must say why it cannot land). */
  async attempt(
    name: string,
    args: Record<string, unknown>,
  ): Promise<{text: string; isError: boolean}> {
    const answer = await callTool(this.server.client, name, {pageId: this.id, ...args});
    this.chars += answer.text.length;
    if (name === 'take_snapshot' && this.snapshot !== '' && args.uid === undefined) {
      this.repeatChars += answer.text.length;
    }
    return answer;
  }

  async open(url: string): Promise<void> {
    const {text} = await callTool(this.server.client, 'new_page', {url});
    this.chars += text.length;
    this.id = selectedPageId(text);
    await this.look();
  }

  async look(): Promise<string> {
    this.snapshot = await this.snapshotOf({});
    return this.snapshot;
  }

  /** The uid of the line with every fragment (after the line with `after`, if given). */
  static uidIn(snapshot: string, fragments: string[], after?: string): string | undefined {
    let lines = snapshot.split('\n');
    if (after !== undefined) {
      const start = lines.findIndex(line => line.includes(after));
      lines = start < 0 ? [] : lines.slice(start + 1);
    }
    const line = lines.find(candidate => fragments.every(fragment => candidate.includes(fragment)));
    const match = line === undefined ? null : /uid=(\S+)|^ *(\d+) /.exec(line);
    return match?.[1] ?? match?.[2];
  }

  /** Finds a uid: in the snapshot, then where the snapshot says the rest is, then verbose. */
  async find(fragments: string[], after?: string): Promise<string> {
    const direct = Agent.uidIn(this.snapshot, fragments, after);
    if (direct !== undefined) {
      return direct;
    }
    const hint = /take_snapshot with uid (\d+) lists all/.exec(this.snapshot)?.[1];
    if (hint !== undefined) {
      const scoped = await this.snapshotOf({uid: hint});
      const found = Agent.uidIn(scoped, fragments, after);
      if (found !== undefined) {
        return found;
      }
    }
    const verbose = await this.snapshotOf({verbose: true});
    const found = Agent.uidIn(verbose, fragments, after);
    if (found === undefined) {
      throw new Error(`not found: ${fragments.join(' ')}`);
    }
    return found;
  }

  async click(fragments: string[], after?: string): Promise<void> {
    await this.tool('click', {uid: await this.find(fragments, after)});
    await this.look();
  }

  async doubleClick(fragments: string[]): Promise<void> {
    await this.tool('click', {uid: await this.find(fragments), dblClick: true});
    await this.look();
  }

  async hover(fragments: string[]): Promise<void> {
    await this.tool('hover', {uid: await this.find(fragments)});
    await this.look();
  }

  async fill(fragments: string[], value: string, after?: string): Promise<void> {
    await this.tool('fill', {uid: await this.find(fragments, after), value});
    await this.look();
  }

  /** Whether the latest (or else a verbose) snapshot has a line with every fragment. */
  async sees(...fragments: string[]): Promise<boolean> {
    if (Agent.uidIn(this.snapshot, fragments) !== undefined) {
      return true;
    }
    const verbose = await this.snapshotOf({verbose: true});
    return Agent.uidIn(verbose, fragments) !== undefined;
  }

  /** Closes the task's page (the harness, not the agent): later listings stay as short. */
  async close(): Promise<void> {
    await callTool(this.server.client, 'close_page', {pageId: this.id}).catch(() => undefined);
  }

  /** Waits (bounded) until a library page marked itself ready, then looks again (the harness). */
  async whenReady(): Promise<void> {
    const start = performance.now();
    const deadline = Date.now() + 15_000;
    while ((await this.check('() => document.body.dataset.ready === "true"')) !== true) {
      if (Date.now() > deadline) {
        throw new Error('the page did not become ready');
      }
      await new Promise(resolve => setTimeout(resolve, 100));
    }
    // The checks above already counted themselves; the sleeps between them are the harness's too.
    this.harnessMs += performance.now() - start - this.#checkMsSince(start);
    await this.look();
  }

  /** Harness time of the checks that ended after `since` (so whenReady does not count them twice). */
  #checkMsSince(since: number): number {
    return this.#checks.filter(check => check.end > since).reduce((sum, c) => sum + c.ms, 0);
  }

  readonly #checks: {end: number; ms: number}[] = [];

  /** Checks the page's state without counting it as reading (the test harness, not the agent). */
  async check(source: string): Promise<unknown> {
    const start = performance.now();
    const {text} = await callTool(this.server.client, 'evaluate_script', {
      pageId: this.id,
      function: source,
    });
    const end = performance.now();
    this.harnessMs += end - start;
    this.#checks.push({end, ms: end - start});
    const json = /```json\n([\s\S]*?)\n```/.exec(text)?.[1];
    return json === undefined ? undefined : JSON.parse(json);
  }
}

/** A task as the agent runs it. */
export interface Task {
  name: string;
  /** The page, from the fixture server's root. */
  path: string;
  /** The page embeds a cross-site frame: give it a moment to load before the agent looks. */
  frames?: boolean;
  /** The page is built from a library: wait until it marked itself ready (the harness). */
  ready?: boolean;
  run: (agent: Agent) => Promise<boolean>;
}

export interface TaskResult {
  ok: boolean;
  /** Characters the agent read. */
  chars: number;
  /** Of those, the snapshots after the task's first. */
  repeatChars: number;
  /** Wall time of the task without the harness's part (readiness polls, checks, frame waits). */
  ms: number;
  /** The failure, when there is one. */
  note: string;
}

/** One task on one server, from opening its page to the check; the page is closed afterwards. */
export async function runTask(server: Server, task: Task, url: string): Promise<TaskResult> {
  const agent = new Agent(server);
  const start = performance.now();
  const result = (ok: boolean, note: string): TaskResult => ({
    ok,
    chars: agent.chars,
    repeatChars: agent.repeatChars,
    ms: performance.now() - start - agent.harnessMs,
    note,
  });
  try {
    await agent.open(url);
    if (task.ready === true) {
      await agent.whenReady();
    }
    if (task.frames === true) {
      // Let the cross-site frame load before the agent looks (both servers alike).
      await new Promise(resolve => setTimeout(resolve, 1_000));
      agent.harnessMs += 1_000;
      await agent.look();
    }
    return result(await task.run(agent), '');
  } catch (error) {
    return result(false, error instanceof Error ? error.message.slice(0, 100) : String(error));
  } finally {
    await agent.close();
  }
}
