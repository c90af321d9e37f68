/**
 * --hold and --holdTimeout: off by default, the rule grammar (one parser with the inspector's),
 * and a bad rule refused with what is accepted.
 *
 * Tests: src/core/config/flags.ts, src/shared/hold.ts
 */
import {describe, expect, it} from 'vitest';
import {parseFlags} from '../../../src/core/config/flags.js';
import {parseHoldRules} from '../../../src/shared/hold.js';
import {
  compileUrlGlob,
  LONG_URL_CHARS,
  URL_GLOB_MAX_CHARS,
  URL_WINDOW_CHARS,
} from '../../../src/shared/urlGlob.js';
import {cpuMsOf} from '../../helpers/loadFactor.js';

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
    const glob = compileUrlGlob('*://*.example.com/*');
    expect(glob.match('https://shop.example.com/cart?x=1')).toBe('yes');
    expect(glob.match('HTTPS://Shop.Example.COM/')).toBe('yes');
    expect(glob.match('https://example.com/')).toBe('no');
    expect(glob.match('https://shop.example.com.evil.test/')).toBe('no');
    expect(compileUrlGlob('http://a.test/p?ge').match('http://a.test/page')).toBe('yes');
    expect(compileUrlGlob('http://a.test/p?ge').match('http://a.test/pge')).toBe('no');
    expect(compileUrlGlob('http://a.test/(x)+').match('http://a.test/(x)+')).toBe('yes');
    expect(compileUrlGlob('http://a.test/').match('http://a.test/x')).toBe('no');
    // Parts after a star are taken at their leftmost place, which never loses a match.
    expect(compileUrlGlob('*a*ab').match('xaab')).toBe('yes');
    expect(compileUrlGlob('a*b*c').match('abbbc')).toBe('yes');
    expect(compileUrlGlob('a*b*c').match('acb')).toBe('no');
    expect(compileUrlGlob('*?b').match('b')).toBe('no');
    expect(compileUrlGlob('**').match('')).toBe('yes');
    expect(compileUrlGlob('ab*ba').match('aba')).toBe('no');
  });

  it('matches a huge URL fast, and holds an over-long one it cannot rule out', () => {
    const glob = compileUrlGlob('*://*.example.com/*');
    // Bad for a backtracking regex (quadratic and worse): many places where a match could start.
    const almost = `https://evil.test/${'://.example.com'.repeat(4_000)}`;
    const long = `https://shop.example.com/${'a'.repeat(90_000)}`;
    const eightyMatches = (): void => {
      for (let round = 0; round < 40; round++) {
        expect(glob.match(almost)).toBe('no');
        expect(glob.match(`https://evil.test/${'a'.repeat(LONG_URL_CHARS - 100)}`)).toBe('no');
      }
    };
    // Eighty matches of ~60 KB each; the regex this replaced took over 0.1 s of CPU for each (8 s
    // in all), this one about 10 ms. CPU time, not wall time: other processes do not move it.
    expect(cpuMsOf(eightyMatches)).toBeLessThan(2_000);
    expect(glob.match(long)).toBe('yes');
    // Over LONG_URL_CHARS, the start and the end decide; the middle is not read.
    const hidden = `https://evil.test/${'a'.repeat(URL_WINDOW_CHARS)}.example.com/${'b'.repeat(URL_WINDOW_CHARS)}`;
    expect(hidden.length).toBeGreaterThan(LONG_URL_CHARS);
    expect(glob.match(hidden)).toBe('maybe');
    expect(compileUrlGlob('https://other.test/*').match(hidden)).toBe('no');
    expect(compileUrlGlob('*.png').match(hidden)).toBe('no');
    expect(compileUrlGlob(`*b`).match(hidden)).toBe('yes');
    expect(compileUrlGlob(hidden).match(hidden)).toBe('no');
  });

  it('refuses a URL glob longer than the bound', () => {
    expect(parseHoldRules([`url:${'a'.repeat(URL_GLOB_MAX_CHARS + 1)}`])).toEqual({
      error: expect.stringContaining(`is over ${URL_GLOB_MAX_CHARS} characters`) as unknown,
    });
  });

  it('names the first bad rule of a list', () => {
    expect(parseHoldRules(['tool:click', 'bogus'])).toEqual({
      error: expect.stringContaining('Unknown hold rule "bogus"') as unknown,
    });
  });
});
