/**
 * `mcp-browser-inspector list`: every server running for this user on this machine (the desktop
 * app, headless servers, the ones agents started over stdio on a random port), each with its
 * clients and a link to its inspector, from the per-user runtime folder. On a terminal the link
 * carries the token, so it opens with one click, as the start-up line does; into a pipe or a file
 * it names where the token is instead. `--json` prints the list without tokens.
 */
import {listRuntimeFiles, runtimeDir} from '../core/config/runtimeFiles.js';
import {inertText} from '../core/recordings/replay/report.js';
import type {RuntimeFile} from '../shared/runningServers.js';
import type {CommandIo} from './replayCommand.js';
import {UsageError} from './subcommandArgs.js';

export const LIST_HELP = `Usage: mcp-browser-inspector list [--json]

Lists every MCP Browser Inspector running for you on this machine: the desktop app, headless
servers, and the ones your agents started over stdio (their inspector is on a free port when 7624
is taken). Each with its clients and the link to its inspector; on a terminal the link carries
the token.

  --json   the list as JSON (without tokens)`;

function since(startedAt: number): string {
  const date = new Date(startedAt);
  const sameDay = date.toDateString() === new Date().toDateString();
  const time = date.toTimeString().slice(0, 5);
  return sameDay ? time : `${date.toISOString().slice(0, 10)} ${time}`;
}

function clientsLine(server: RuntimeFile): string {
  if (server.clients.length === 0) {
    return 'none connected';
  }
  const named = server.clients.map(
    client => `${inertText(client.name, true)} (${client.transport}${client.live ? ', live' : ''})`,
  );
  return `${named.join(', ')}${server.moreClients > 0 ? `, and ${server.moreClients} more` : ''}`;
}

function describe(server: RuntimeFile, terminal: boolean): string {
  const kind =
    server.kind === 'desktop'
      ? 'desktop app'
      : server.stdio
        ? 'headless, started by an agent over stdio'
        : 'headless';
  const token = terminal ? server.token : `<token ${inertText(server.tokenWhere, true)}>`;
  return [
    `PID ${server.pid}  ${kind}  since ${since(server.startedAt)}  ${inertText(server.cwd, true)}`,
    `  inspector  ${server.inspectorUrl}#token=${token}`,
    `  MCP        ${server.mcpUrl}`,
    `  clients    ${clientsLine(server)}`,
  ].join('\n');
}

export function runList(argv: readonly string[], io: CommandIo): Promise<number> {
  const unknown = argv.filter(arg => arg !== '--json' && arg !== '--help' && arg !== '-h');
  if (unknown.length > 0) {
    throw new UsageError(`list takes only --json; got ${JSON.stringify(unknown[0])}.`);
  }
  if (argv.includes('--help') || argv.includes('-h')) {
    io.out(`${LIST_HELP}\n`);
    return Promise.resolve(0);
  }
  const dir = runtimeDir(io.env);
  const servers = listRuntimeFiles(dir);
  if (argv.includes('--json')) {
    const shown = servers.map(({token: _token, startTicks: _ticks, ...server}) => server);
    io.out(`${JSON.stringify(shown, null, 2)}\n`);
    return Promise.resolve(0);
  }
  if (servers.length === 0) {
    io.out(`No MCP Browser Inspector is running for you on this machine (looked in ${dir}).\n`);
    return Promise.resolve(0);
  }
  const count = `${servers.length} MCP Browser Inspector server${servers.length === 1 ? '' : 's'}`;
  const blocks = servers.map(server => describe(server, io.terminal === true));
  io.out(`${count} running:\n\n${blocks.join('\n\n')}\n`);
  return Promise.resolve(0);
}
