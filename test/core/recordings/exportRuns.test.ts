/**
 * Exported tests that check what the agent checked. Agent runs over ARIA widget pages (a
 * disclosure, tabs, a key-reactive combobox, a checkbox and a switch, a menu button, dialogs,
 * same-site and cross-site iframes, an upload, a popup, a responsive layout) are recorded with the
 * real engine and exported; the exported files type-check with TypeScript in strict mode, and
 * Playwright Test runs them twice: against the pages as they are, where every test passes, and
 * against the same pages with their scripts removed, where every test fails, because what the
 * scripts do (states, values, texts that appear and go, dialogs, popups) is what they assert.
 */
import fs from 'node:fs';
import path from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {exportRecording} from '../../../src/core/recordings/exportRecording.js';
import {parseRecordingText} from '../../../src/shared/recordingFile.js';
import {ROOT, useEngineWithFixtures} from '../../helpers/engine.js';
import {recordHub} from '../../helpers/hubRecording.js';
import {
  playwrightFolder,
  runNode,
  runPlaywright,
  writeStrictTsconfig,
} from '../../helpers/playwrightRun.js';
import {serveWidgets, type WidgetVariant} from '../../helpers/widgetPages.js';
import {Agent, WIDGET_SESSIONS} from '../../helpers/widgetSessions.js';
import {scaled} from '../../helpers/loadFactor.js';

let variant: WidgetVariant = {};
const fixture = useEngineWithFixtures({
  tmpPrefix: 'mbi-export-runs-',
  routes: server => serveWidgets(server, () => variant),
});
/** Inside the checkout, so the exported tests resolve @playwright/test from its node_modules. */
let dir = '';
const exported = new Map<string, string>();

beforeAll(async () => {
  dir = playwrightFolder('export-runs-');
  const hub = fixture.engine.engine.hub;
  for (const [name, session] of Object.entries(WIDGET_SESSIONS)) {
    const recording = recordHub(hub, hub.nextSeq);
    await session(new Agent(fixture.client, fixture.server, fixture.tmp));
    const file = path.join(fixture.tmp, `${name}.jsonl`);
    await recording.save(file);
    recording.close();
    const text = exportRecording(parseRecordingText(fs.readFileSync(file, 'utf8')), 'playwright');
    fs.writeFileSync(path.join(dir, `${name}.spec.ts`), text);
    exported.set(name, text);
  }
}, scaled(180_000));

afterAll(() => {
  if (dir !== '') {
    fs.rmSync(dir, {recursive: true, force: true});
  }
});

/** Runs every exported test once; the outcome per exported file (true: passed). */
async function playwright(expected: 'pass' | 'fail'): Promise<Map<string, boolean>> {
  return (await runPlaywright(dir, expected)).passed;
}

describe('an exported recording', () => {
  it('asserts what the agent saw change, not only headings', () => {
    const tabs = exported.get('tabs') ?? '';
    expect(tabs).toContain('.getByRole("tab", { selected: true })');
    expect(tabs).toContain('getByRole("tabpanel", { name: "Privacy", exact: true })');
    const form = exported.get('form') ?? '';
    expect(form).toContain('.setChecked(true);');
    expect(form).toContain('.pressSequentially("Bl");');
    expect(form).toContain('toHaveValue("Blueberry")');
    expect(form).toContain('.toBeChecked();');
    expect(form).toMatch(
      /const frame\d = page\d\.locator\('iframe'\)\.and\(page\d\.getByTitle\("Cross-site widget"/,
    );
    expect(form).toContain("waitForEvent('dialog')");
    expect(form).toContain('await dialog.accept("final.pdf");');
    expect(form).toContain('expect(await dialog2).toEqual(["prompt", "New name?"]);');
    expect(form).toContain('await uploadFiles(');
    const popup = exported.get('popup') ?? '';
    expect(popup).toMatch(
      /const page2Opened = page\.waitForEvent\('popup'\);\n.*click\(\);\n\s*const page2 = await page2Opened;/,
    );
    expect(popup).not.toContain('context.pages().find');
    const layout = exported.get('layout') ?? '';
    expect(layout).toContain('await page.setViewportSize({ width: 600, height: 700 });');
    expect(layout).toContain('emulateMedia({ colorScheme: "dark"');
  });

  it('type-checks with TypeScript in strict mode', async () => {
    writeStrictTsconfig(dir);
    const tsc = await runNode(
      [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'],
      dir,
    );
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.code).toBe(0);
  });

  it(
    'passes on the pages, and fails on the same pages without their scripts',
    async () => {
      variant = {};
      const real = await playwright('pass');
      expect(Object.fromEntries(real)).toEqual(
        Object.fromEntries(Object.keys(WIDGET_SESSIONS).map(name => [name, true])),
      );
      variant = {withoutScripts: true};
      try {
        const stripped = await playwright('fail');
        expect(Object.fromEntries(stripped)).toEqual(
          Object.fromEntries(Object.keys(WIDGET_SESSIONS).map(name => [name, false])),
        );
      } finally {
        variant = {};
      }
    },
    scaled(300_000),
  );
});
