/**
 * The page scripts of src/injected reach the engine as strings in one committed, generated module:
 * it must match its sources, and every script must run standalone (no esbuild helper such as
 * `__name` or `__defProp` referenced from outside the function).
 *
 * Tests: scripts/build-injected.mjs, src/core/browser/injectedSources.generated.ts
 */
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import {describe, expect, it} from 'vitest';
import {
  GENERATED_FILE,
  REGENERATE_COMMAND,
  generateInjectedSources,
} from '../../scripts/build-injected.mjs';
import * as sources from '../../src/core/browser/injectedSources.generated.js';
import {ROOT} from '../helpers/engine.js';

describe('injected page scripts', () => {
  it('the committed generated module is what src/injected builds to', async () => {
    const committed = fs.readFileSync(path.join(ROOT, GENERATED_FILE), 'utf8');
    const fresh = await generateInjectedSources();
    expect(
      committed === fresh,
      `${GENERATED_FILE} is stale: run \`${REGENERATE_COMMAND}\` and commit it.`,
    ).toBe(true);
  });

  it('has one script per exported function of src/injected, each a standalone function', () => {
    const entries = Object.entries(sources);
    expect(entries.map(([name]) => name)).toContain('MARK_SCROLLS');
    for (const [name, source] of entries) {
      expect(source, name).toMatch(/^function \(\) \{\n {2}"use strict";\n/);
      expect(source, name).not.toMatch(/\b__(name|defProp|export|toESM|commonJS|require)\b/);
      // One expression that makes a function, in a realm of its own (nothing but the language).
      const made: unknown = vm.runInNewContext(`(${source})`);
      expect(typeof made, name).toBe('function');
    }
  });

  it('a script runs standalone with its arguments', () => {
    // No watch installed in this realm: the wait ends at once, with no scroll seen.
    const reply: unknown = vm.runInNewContext(
      `(${sources.WAIT_FOR_SCROLL_END}).call(undefined, {scrolls: 0, ends: 0}, 10)`,
    );
    return expect(reply).resolves.toBe('none');
  });
});
