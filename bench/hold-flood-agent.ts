/**
 * The flooding agent of bench/hold-flood.ts, in its own process so its own work (sending and
 * reading a hundred calls) does not count as the server's: CALLS evaluate_script calls with
 * ARG_BYTES of arguments each, all at once. Prints one line per answer: `ran`, `refused` or
 * `failed`.
 */
import {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {StreamableHTTPClientTransport} from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const {MCP_URL = '', TOKEN = '', PAGE_ID = '0', CALLS = '150', ARG_BYTES = '4096'} = process.env;
const client = new Client({name: 'flooder', version: '1.0.0'});
await client.connect(
  new StreamableHTTPClientTransport(new URL(MCP_URL), {
    requestInit: {headers: {Authorization: `Bearer ${TOKEN}`}},
  }),
);
const padding = 'x'.repeat(Number(ARG_BYTES));
await Promise.all(
  Array.from({length: Number(CALLS)}, (_, index) =>
    client
      .callTool(
        {
          name: 'evaluate_script',
          arguments: {pageId: Number(PAGE_ID), function: `() => ${index} /* ${padding} */`},
        },
        undefined,
        {timeout: 600_000},
      )
      .then(result => (result.isError === true ? 'refused' : 'ran'))
      .catch(() => 'failed')
      .then(outcome => process.stdout.write(`${outcome}\n`)),
  ),
);
await client.close();
