/**
 * The lighter version of the agents load (`npm run bench -- agents` runs 50): 10 MCP clients at
 * once over HTTP, each opening its page, listing pages 20 times, evaluating 5 times on its page
 * and closing it. No call fails, hangs or lands on another client's page, every client's page is
 * closed at the end, and nothing of the clients is left in the engine once they are gone.
 *
 * Tests: src/core/mcp/ClientSession.ts, src/core/mcp/ToolRunner.ts,
 *   src/core/http/ClientSessionTable.ts
 */
import {describe, expect, it} from 'vitest';
import {runAgentsLoad} from '../../../bench/agentsLoad.js';
import {useEngineWithFixtures, waitFor} from '../../helpers/engine.js';

const fx = useEngineWithFixtures({flags: ['--maxSessions', '30'], clientName: 'bystander'});

describe('10 agents on one server', () => {
  it('each acts on its own page, and leaves nothing behind', async () => {
    const engine = fx.engine.engine;
    // The Run panel's own view exists once the inspector has asked for the pages.
    engine.state();
    const viewsBefore = engine.browser.pages.viewCount;
    const result = await runAgentsLoad({
      mcpUrl: fx.engine.mcpUrl,
      token: fx.engine.token,
      pageUrl: fx.server.url('/index.html'),
      clients: 10,
    });
    expect(result.firstErrors).toEqual([]);
    expect(result).toMatchObject({errors: 0, hangs: 0, pagesLeft: 0, calls: 10 * 27});
    // The clients ended their sessions: their views and roster entries are gone with them.
    await waitFor(
      () => engine.browser.pages.viewCount === viewsBefore,
      10_000,
      'the clients’ views to be forgotten',
    );
    expect(engine.roster.clients().map(client => client.name)).toEqual(['bystander']);
    const closed = engine.roster.closedClients().filter(client => client.name.startsWith('agent-'));
    expect(closed).toHaveLength(10);
    expect(new Set(closed.map(client => client.reason))).toEqual(new Set(['closed']));
    expect(
      engine.browser.pages.list().every(page => !page.owner?.client.name.startsWith('agent-')),
    ).toBe(true);
  });
});
