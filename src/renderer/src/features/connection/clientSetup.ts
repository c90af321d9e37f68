/**
 * Ready-made setup for common MCP clients, for the MCP URL and token of this server. The token is
 * a parameter so the UI can show a masked version and copy the real one.
 */
/** The name clients know this server by: the same in README.md's setup. */
export const SERVER_NAME = 'mcp-browser-inspector';

export interface ClientSetup {
  id: string;
  client: string;
  /** Where it goes (a command to run, or a file). */
  where: string;
  text: string;
}

function shellQuote(value: string): string {
  return /^[A-Za-z0-9_./:@=-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

export function clientSetups(mcpUrl: string, token: string): ClientSetup[] {
  const authorization = `Bearer ${token}`;
  const headers = {Authorization: authorization};
  const json = (value: unknown): string => JSON.stringify(value, null, 2);
  return [
    {
      id: 'claude-code',
      client: 'Claude Code',
      where: 'Run in a terminal',
      // --scope user: available in every project, like the README's setup.
      text: `claude mcp add --scope user --transport http ${SERVER_NAME} ${shellQuote(mcpUrl)} --header "Authorization: ${authorization}"`,
    },
    {
      id: 'cursor',
      client: 'Cursor',
      where: '~/.cursor/mcp.json (or .cursor/mcp.json in a project)',
      text: json({mcpServers: {[SERVER_NAME]: {url: mcpUrl, headers}}}),
    },
    {
      id: 'vscode',
      client: 'VS Code',
      where: '.vscode/mcp.json in your workspace (or "MCP: Open User Configuration")',
      text: json({servers: {[SERVER_NAME]: {type: 'http', url: mcpUrl, headers}}}),
    },
    {
      id: 'claude-desktop',
      client: 'Claude Desktop',
      where:
        'claude_desktop_config.json (Settings → Developer → Edit Config); needs Node for npx mcp-remote',
      // mcp-remote bridges stdio to HTTP. The header value has a space, so it travels in env
      // (arguments with spaces break on Windows).
      text: json({
        mcpServers: {
          [SERVER_NAME]: {
            command: 'npx',
            args: [
              '-y',
              'mcp-remote',
              mcpUrl,
              '--transport',
              'http-only',
              '--header',
              'Authorization:${AUTH_HEADER}',
            ],
            env: {AUTH_HEADER: authorization},
          },
        },
      }),
    },
    {
      id: 'gemini',
      client: 'Gemini CLI',
      where: '~/.gemini/settings.json (or .gemini/settings.json in a project)',
      text: json({mcpServers: {[SERVER_NAME]: {httpUrl: mcpUrl, headers}}}),
    },
  ];
}

export const MASKED_TOKEN = '<token: click Reveal>';
