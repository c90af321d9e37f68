/**
 * A real SDK client connected over HTTP with the bearer token, to a server the test started as a
 * process of its own (its ready file gives the endpoint and token). In-process engines connect
 * with `TestEngine.connect` (helpers/engine.ts).
 */
import {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {StreamableHTTPClientTransport} from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/** Where a server listens for MCP and the token it takes. */
export interface McpEndpoint {
  mcpUrl: string;
  token: string;
}

export async function connectHttpClient(endpoint: McpEndpoint, name: string): Promise<Client> {
  const client = new Client({name, version: '1'});
  await client.connect(
    new StreamableHTTPClientTransport(new URL(endpoint.mcpUrl), {
      requestInit: {headers: {Authorization: `Bearer ${endpoint.token}`}},
    }),
  );
  return client;
}
