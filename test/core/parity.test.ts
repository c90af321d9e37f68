/**
 * Parity with the peer itself: chrome-devtools-mcp 1.11 (a devDependency) is started over stdio and
 * its tools/list compared with ours, so an agent or skill written for it works here unchanged.
 * Every tool and parameter it has must exist here with the same JSON type, enum values and
 * required-ness; deliberate differences are allow-listed with the reason. All problems are
 * reported at once, so the message is the current gap list.
 *
 * Tests: src/core/tools/index.ts, src/shared/categories.ts
 */
import {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js';
import type {Tool} from '@modelcontextprotocol/sdk/types.js';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {TOOL_CATEGORIES, categoryFlagName} from '../../src/shared/categories.js';
import {ROOT, startEngine, type TestEngine} from '../helpers/engine.js';

const PEER_BIN = 'node_modules/chrome-devtools-mcp/build/src/bin/chrome-devtools-mcp.js';
const PEER_BASE_ARGS = [
  '--headless',
  '--isolated',
  '--executablePath=/usr/bin/chromium',
  '--chromeArg=--no-sandbox',
];
/** Every category and tool condition the peer has, switched on. */
const PEER_ALL_ARGS = [
  '--categoryExtensions',
  '--categoryExperimentalThirdParty',
  '--categoryExperimentalWebmcp',
  '--categoryPwa',
  '--experimentalVision',
  '--memoryDebugging',
];
const OURS_ALL_ARGS = [
  ...TOOL_CATEGORIES.map(category => `--${categoryFlagName(category)}`),
  '--experimentalVision',
  '--memoryDebugging',
];

interface Allowance {
  tool: string;
  /** Dotted parameter path (`elements[].uid`); omitted = the whole tool. */
  param?: string;
  reason: string;
}

/** Deliberate differences in the default tool set (none so far). */
const ALLOWED_DIFFERENCES: Allowance[] = [];

/** Peer tools and parameters this app leaves out on purpose (none: the whole surface is here). */
const KNOWN_GAPS: Allowance[] = [];

interface JsonSchema {
  type?: string;
  enum?: unknown[];
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
}

function isSchema(value: unknown): value is JsonSchema {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function schemaOf(value: unknown): JsonSchema {
  return isSchema(value) ? value : {};
}

function allowed(list: readonly Allowance[], tool: string, param?: string): boolean {
  return list.some(
    entry => entry.tool === tool && (entry.param === undefined || entry.param === param),
  );
}

/** Differences of one object schema (recursing into array items and nested objects). */
function compareObject(
  tool: string,
  path: string,
  peer: JsonSchema,
  ours: JsonSchema,
  problems: string[],
  gaps: readonly Allowance[],
): void {
  const peerRequired = new Set(peer.required ?? []);
  const ourRequired = new Set(ours.required ?? []);
  const ourProperties = ours.properties ?? {};
  for (const [name, peerParamRaw] of Object.entries(peer.properties ?? {})) {
    const param = `${path}${name}`;
    if (allowed(ALLOWED_DIFFERENCES, tool, param) || allowed(gaps, tool, param)) {
      continue;
    }
    const ourParamRaw = ourProperties[name];
    if (ourParamRaw === undefined) {
      problems.push(`${tool}: missing parameter "${param}"`);
      continue;
    }
    if (peerRequired.has(name) !== ourRequired.has(name)) {
      problems.push(
        `${tool}: "${param}" is ${peerRequired.has(name) ? 'required' : 'optional'} in the peer but ${ourRequired.has(name) ? 'required' : 'optional'} here`,
      );
    }
    compareValue(tool, param, schemaOf(peerParamRaw), schemaOf(ourParamRaw), problems, gaps);
  }
  // Extra parameters are fine, unless required: an agent written for the peer never sends them.
  for (const name of ourRequired) {
    if (
      peer.properties?.[name] === undefined &&
      !allowed(ALLOWED_DIFFERENCES, tool, `${path}${name}`)
    ) {
      problems.push(`${tool}: "${path}${name}" is required here but unknown to the peer`);
    }
  }
}

function compareValue(
  tool: string,
  param: string,
  peer: JsonSchema,
  ours: JsonSchema,
  problems: string[],
  gaps: readonly Allowance[],
): void {
  if (peer.type !== ours.type) {
    problems.push(
      `${tool}: "${param}" has type ${peer.type ?? 'any'} in the peer but ${ours.type ?? 'any'} here`,
    );
    return;
  }
  if (peer.enum) {
    const accepted = new Set(ours.enum ?? []);
    const missing = ours.enum ? peer.enum.filter(value => !accepted.has(value)) : [];
    if (missing.length > 0) {
      problems.push(`${tool}: "${param}" does not accept ${JSON.stringify(missing)}`);
    }
  }
  if (peer.items) {
    compareValue(tool, `${param}[]`, peer.items, schemaOf(ours.items), problems, gaps);
  }
  if (peer.properties) {
    compareObject(tool, `${param}.`, peer, ours, problems, gaps);
  }
}

function compareToolSets(
  peerTools: readonly Tool[],
  ourTools: readonly Tool[],
  gaps: readonly Allowance[],
): {problems: string[]; skippedGaps: string[]} {
  const ours = new Map(ourTools.map(tool => [tool.name, tool]));
  const problems: string[] = [];
  const skippedGaps: string[] = [];
  for (const peerTool of peerTools) {
    const ourTool = ours.get(peerTool.name);
    if (!ourTool) {
      if (
        allowed(gaps, peerTool.name) &&
        gaps.some(gap => gap.tool === peerTool.name && !gap.param)
      ) {
        skippedGaps.push(peerTool.name);
      } else if (!allowed(ALLOWED_DIFFERENCES, peerTool.name)) {
        problems.push(`missing tool ${peerTool.name}`);
      }
      continue;
    }
    compareObject(
      peerTool.name,
      '',
      schemaOf(peerTool.inputSchema),
      schemaOf(ourTool.inputSchema),
      problems,
      gaps,
    );
    const peerReadOnly = peerTool.annotations?.readOnlyHint === true;
    const ourReadOnly = ourTool.annotations?.readOnlyHint === true;
    if (
      peerReadOnly !== ourReadOnly &&
      !allowed(ALLOWED_DIFFERENCES, peerTool.name, 'readOnlyHint')
    ) {
      problems.push(
        `${peerTool.name}: readOnlyHint is ${peerReadOnly} in the peer but ${ourReadOnly} here`,
      );
    }
  }
  return {problems, skippedGaps};
}

async function listPeerTools(
  extraArgs: string[],
): Promise<{tools: Tool[]; close: () => Promise<void>}> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [PEER_BIN, ...PEER_BASE_ARGS, ...extraArgs],
    cwd: ROOT,
    env: {
      ...Object.fromEntries(
        Object.entries(process.env).filter(
          (entry): entry is [string, string] => entry[1] !== undefined,
        ),
      ),
      CHROME_DEVTOOLS_MCP_NO_USAGE_STATISTICS: '1',
      CHROME_DEVTOOLS_MCP_NO_UPDATE_CHECKS: '1',
    },
    stderr: 'pipe',
  });
  const client = new Client({name: 'parity-test', version: '1.0.0'});
  await client.connect(transport);
  const {tools} = await client.listTools();
  return {tools, close: () => client.close()};
}

function report(title: string, problems: string[]): string {
  return `${title}: ${problems.length} difference(s)\n${problems.map(problem => `  - ${problem}`).join('\n')}`;
}

function sortedByName(tools: readonly Tool[]): Tool[] {
  return [...tools].sort((a, b) => a.name.localeCompare(b.name));
}

let peerDefault: Tool[];
let peerAll: Tool[];
let oursDefault: Tool[];
let oursAll: Tool[];
const closers: (() => Promise<void>)[] = [];
const engines: TestEngine[] = [];

beforeAll(async () => {
  const [peerDefaultList, peerAllList, engineDefault, engineAll] = await Promise.all([
    listPeerTools([]),
    listPeerTools(PEER_ALL_ARGS),
    startEngine(),
    startEngine(OURS_ALL_ARGS),
  ]);
  closers.push(peerDefaultList.close, peerAllList.close);
  engines.push(engineDefault, engineAll);
  peerDefault = peerDefaultList.tools;
  peerAll = peerAllList.tools;
  oursDefault = (await (await engineDefault.connect('parity')).listTools()).tools;
  oursAll = (await (await engineAll.connect('parity')).listTools()).tools;
});

afterAll(async () => {
  await Promise.all(closers.map(close => close().catch(() => undefined)));
  await Promise.all(engines.map(engine => engine.stop()));
});

describe('the comparison itself', () => {
  it('reports every kind of difference at once', () => {
    const object = (
      properties: Record<string, object>,
      required: string[] = [],
    ): Tool['inputSchema'] => ({type: 'object', properties, required});
    const peer: Tool[] = [
      {
        name: 'fill_form',
        inputSchema: object(
          {
            elements: {
              type: 'array',
              items: object({uid: {type: 'string'}, value: {type: 'string'}}, ['uid', 'value']),
            },
            pageSize: {type: 'integer'},
            mode: {type: 'string', enum: ['a', 'b']},
            gone: {type: 'boolean'},
          },
          ['elements'],
        ),
        annotations: {readOnlyHint: false},
      },
      {name: 'only_in_peer', inputSchema: object({})},
    ];
    const ours: Tool[] = [
      {
        name: 'fill_form',
        inputSchema: object(
          {
            elements: {type: 'array', items: object({value: {type: 'string'}}, ['value'])},
            pageSize: {type: 'number'},
            mode: {type: 'string', enum: ['a']},
            extra: {type: 'string'},
          },
          ['extra'],
        ),
        annotations: {readOnlyHint: true},
      },
    ];
    expect(compareToolSets(peer, ours, []).problems.sort()).toEqual(
      [
        'fill_form: missing parameter "elements[].uid"',
        'fill_form: "elements" is required in the peer but optional here',
        'fill_form: "pageSize" has type integer in the peer but number here',
        'fill_form: "mode" does not accept ["b"]',
        'fill_form: missing parameter "gone"',
        'fill_form: "extra" is required here but unknown to the peer',
        'fill_form: readOnlyHint is false in the peer but true here',
        'missing tool only_in_peer',
      ].sort(),
    );
    // A known gap excuses only what it names.
    expect(
      compareToolSets(peer, ours, [{tool: 'only_in_peer', reason: 'test'}]).problems,
    ).not.toContain('missing tool only_in_peer');
  });
});

describe('parity with chrome-devtools-mcp 1.11', () => {
  it('has every default tool and parameter of the peer, with the same types and required-ness', () => {
    expect(peerDefault.length).toBeGreaterThanOrEqual(30);
    const {problems} = compareToolSets(peerDefault, oursDefault, []);
    console.log(report('Default tool set', problems));
    expect(problems, report('Default tool set', problems)).toEqual([]);
  });

  it('matches the full surface with every category and condition on: every tool, same parameters', () => {
    expect(peerAll.length).toBeGreaterThan(peerDefault.length);
    const {problems, skippedGaps} = compareToolSets(peerAll, oursAll, KNOWN_GAPS);
    const peerNames = peerAll.map(tool => tool.name);
    const ourNames = new Set(oursAll.map(tool => tool.name));
    console.log(
      `${report('All categories', problems)}\n${peerNames.filter(name => ourNames.has(name)).length}/${peerNames.length} peer tools present`,
    );
    expect(skippedGaps).toEqual([]);
    expect(peerNames.filter(name => !ourNames.has(name))).toEqual([]);
    expect(problems, report('All categories', problems)).toEqual([]);
  });

  it('keeps the default tool definitions at most 0.8x the size of the peer for the same tools', () => {
    const common = new Set(
      oursDefault
        .map(tool => tool.name)
        .filter(name => peerDefault.some(tool => tool.name === name)),
    );
    const peerSize = JSON.stringify(
      sortedByName(peerDefault.filter(tool => common.has(tool.name))),
    ).length;
    const ourSize = JSON.stringify(
      sortedByName(oursDefault.filter(tool => common.has(tool.name))),
    ).length;
    console.log(
      `tools/list JSON for ${common.size} common tools: ours ${ourSize} chars, peer ${peerSize} chars (ratio ${(ourSize / peerSize).toFixed(3)})`,
    );
    expect(common.size).toBeGreaterThan(0);
    expect(ourSize).toBeLessThanOrEqual(0.8 * peerSize);
  });

  it('keeps the optional tools (every category and flag on) no larger than the peer', () => {
    const optional = peerAll
      .map(tool => tool.name)
      .filter(name => !peerDefault.some(tool => tool.name === name));
    const size = (tools: readonly Tool[]): number =>
      JSON.stringify(sortedByName(tools.filter(tool => optional.includes(tool.name)))).length;
    const peerSize = size(peerAll);
    const ourSize = size(oursAll);
    console.log(
      `tools/list JSON for ${optional.length} optional tools: ours ${ourSize} chars, peer ${peerSize} chars (ratio ${(ourSize / peerSize).toFixed(3)})`,
    );
    expect(optional.length).toBeGreaterThanOrEqual(25);
    expect(ourSize).toBeLessThanOrEqual(peerSize);
  });
});
