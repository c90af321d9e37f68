/**
 * --hold and --holdTimeout: off by default, the rule grammar (one parser with the inspector's),
 * and a bad rule refused with what is accepted.
 */
import {describe, expect, it} from 'vitest';
import {parseFlags} from '../../../src/core/config/flags.js';
import {globToRegExp, parseHoldRules} from '../../../src/shared/hold.js';

const env = {env: {}, hasDisplay: true};

function parsed(argv: string[]): ReturnType<typeof parseFlags> {
  return parseFlags(argv, env);
}

describe('--hold', () => {
  it('is off by default with a 300 s timeout', () => {
    const result = parsed([]);
    expect(result.kind === 'config' && result.config.hold).toEqual({rules: [], timeoutMs: 300_000});
  });

  it('takes comma lists and repeats, normalized and without duplicates', () => {
    const result = parsed([
      '--hold=not-read-only',
      '--hold',
      'tool:click, category:input,url:*://*.example.com/*,tool:click',
      '--hold-timeout',
      '2.5',
    ]);
    expect(result.kind === 'config' && result.config.hold).toEqual({
      rules: ['not-read-only', 'tool:click', 'category:input', 'url:*://*.example.com/*'],
      timeoutMs: 2_500,
    });
    const all = parsed(['--hold=all,step,webmcp-consequential,webmcp-not-read-only']);
    expect(all.kind === 'config' && all.config.hold.rules).toEqual([
      'all',
      'step',
      'webmcp-consequential',
      'webmcp-not-read-only',
    ]);
    const off = parsed(['--hold=off']);
    expect(off.kind === 'config' && off.config.hold.rules).toEqual([]);
  });

  it.each([
    [
      '--hold=everything',
      'Unknown hold rule "everything". Expected a comma-separated list of: all, not-read-only, tool:<name>, category:<id>, url:<glob>, step, webmcp-consequential, webmcp-not-read-only (or off)',
    ],
    [
      '--hold=category:clicks',
      'Unknown category "clicks" in "category:clicks". Categories: input, ',
    ],
    ['--hold=tool:', 'Unknown hold rule "tool:". Expected'],
    ['--hold=url:', 'Unknown hold rule "url:". Expected'],
    ['--hold=all,,step', 'An empty hold rule in "all,,step". Expected'],
  ])('refuses %s saying what is accepted', (flag, message) => {
    const result = parsed([flag]);
    expect(result.kind).toBe('error');
    expect(result.kind === 'error' && result.message).toContain(
      `Invalid value for --hold: ${message}`,
    );
  });

  it('refuses a bad --holdTimeout', () => {
    const result = parsed(['--holdTimeout=soon']);
    expect(result.kind === 'error' && result.message).toBe(
      'Invalid value for --holdTimeout: "soon". Expected a positive number of seconds.',
    );
  });
});

describe('hold rule grammar', () => {
  it('matches URL globs on the whole URL, * across slashes', () => {
    const glob = globToRegExp('*://*.example.com/*');
    expect(glob.test('https://shop.example.com/cart?x=1')).toBe(true);
    expect(glob.test('https://example.com/')).toBe(false);
    expect(glob.test('https://shop.example.com.evil.test/')).toBe(false);
    expect(globToRegExp('http://a.test/p?ge').test('http://a.test/page')).toBe(true);
    expect(globToRegExp('http://a.test/(x)+').test('http://a.test/(x)+')).toBe(true);
  });

  it('names the first bad rule of a list', () => {
    expect(parseHoldRules(['tool:click', 'bogus'])).toEqual({
      error: expect.stringContaining('Unknown hold rule "bogus"') as unknown,
    });
  });
});
