/**
 * Exported tests that check what the agent checked. Agent runs over ARIA widget pages (a
 * disclosure, tabs, a key-reactive combobox, a checkbox and a switch, a menu button, dialogs,
 * same-site and cross-site iframes, an upload, a popup, a responsive layout) and keyboard-driven
 * ones (colour sliders, a spin button, a data grid, a tree view, a listbox) are recorded with the
 * real engine and exported; the exported files type-check with TypeScript in strict mode, and
 * Playwright Test runs each of them twice, all in one run: against the pages as they are, where
 * every test passes, and against the same pages with their scripts removed, where every test
 * fails at an assertion (or action) naming what the scripts did not do: states, values, focus,
 * texts that appear and go, dialogs, popups. The type check and that run start together once the
 * files are written (the type check computes while the failing tests wait out their limits).
 *
 * Tests: src/core/recordings/export/exportRecording.ts, src/core/recordings/export/files.ts
 */
import fs from 'node:fs';
import path from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {exportFilesFor} from '../../../src/core/recordings/export/files.js';
import {exportRecording} from '../../../src/core/recordings/export/exportRecording.js';
import {recordedCalls} from '../../../src/core/recordings/replay/calls.js';
import {parseRecordingText} from '../../../src/shared/recordingFile.js';
import {ROOT, useEngineWithFixtures} from '../../helpers/engine.js';
import {recordHub} from '../../helpers/hubRecording.js';
import {KEYBOARD_SESSIONS} from '../../helpers/keyboardSessions.js';
import {
  playwrightFolder,
  runNode,
  runPlaywrightOnBoth,
  wantsChangedPages,
  writeStrictTsconfig,
  type PlaywrightOutcome,
  type ProcessRun,
} from '../../helpers/playwrightRun.js';
import {serveWidgets} from '../../helpers/widgetPages.js';
import {Agent, WIDGET_SESSIONS} from '../../helpers/widgetSessions.js';
import {scaled} from '../../helpers/loadFactor.js';

const fixture = useEngineWithFixtures({
  tmpPrefix: 'mbi-export-runs-',
  // The Playwright run's `changed` project gets the pages without their scripts.
  routes: server => serveWidgets(server, request => ({withoutScripts: wantsChangedPages(request)})),
});
/** Inside the checkout, so the exported tests resolve @playwright/test from its node_modules. */
let dir = '';
const exported = new Map<string, string>();

const SESSIONS = {...WIDGET_SESSIONS, ...KEYBOARD_SESSIONS};

/** Started once every file is written; awaited by the tests that check them. */
let typeCheck: Promise<ProcessRun> | undefined;
let playwrightRuns: Promise<{pages: PlaywrightOutcome; changed: PlaywrightOutcome}> | undefined;

beforeAll(async () => {
  dir = playwrightFolder('export-runs-');
  const hub = fixture.engine.engine.hub;
  for (const [name, session] of Object.entries(SESSIONS)) {
    const recording = recordHub(hub, hub.nextSeq);
    await session(new Agent(fixture.client, fixture.server, fixture.tmp));
    const file = path.join(fixture.tmp, `${name}.jsonl`);
    await recording.save(file);
    recording.close();
    const parsed = parseRecordingText(fs.readFileSync(file, 'utf8'));
    // The agent's script and upload files are in the run's folder: the one the export may use.
    const files = await exportFilesFor(recordedCalls(parsed.events).calls, [fixture.tmp], []);
    const text = exportRecording(parsed, 'playwright', {files});
    fs.writeFileSync(path.join(dir, `${name}.spec.ts`), text);
    exported.set(name, text);
  }
  writeStrictTsconfig(dir);
  typeCheck = runNode(
    [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'],
    dir,
  );
  // Every exported test twice, in one run (bounded by how many there are).
  playwrightRuns = runPlaywrightOnBoth(dir, 60_000 * (2 + 2 * Object.keys(SESSIONS).length));
  // Awaited by their tests; a failure until then is not an unhandled rejection.
  typeCheck.catch(() => undefined);
  playwrightRuns.catch(() => undefined);
}, scaled(300_000));

afterAll(async () => {
  // A test that did not run leaves its run going: it ends before its folder goes.
  await Promise.allSettled([typeCheck, playwrightRuns]);
  if (dir !== '') {
    fs.rmSync(dir, {recursive: true, force: true});
  }
});

function started<T>(run: Promise<T> | undefined): Promise<T> {
  return run ?? Promise.reject(new Error('beforeAll did not start the run'));
}

/**
 * Where each test fails on the pages without their scripts: the first failure's message names
 * what the script did not do.
 */
const FAILS_AT: Record<string, RegExp> = {
  disclosure: /button "What does it cost\?" is expanded/,
  tabs: /tab "(General" is not|Privacy" is) selected/,
  menu: /button "Actions" is expanded/,
  popup: /button "Keyboard shortcuts" is pressed/,
  layout: /status shows "Narrow layout"/,
  form: /setChecked: Clicking the checkbox did not change its state/,
  colorSlider: /slider "Red" value is "255"[\s\S]*Expected: "255"\nReceived: "128"/,
  spinbutton: /button "Fewer guests" is enabled[\s\S]*Received: disabled/,
  grid: /gridcell "Bus ticket" is focused[\s\S]*Received: inactive/,
  tree: /treeitem "Documents" is expanded/,
  listbox: /option "Plutonium" is the active descendant/,
};

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

  it('asserts values, focus, enabled buttons and texts the keys changed', () => {
    const slider = exported.get('colorSlider') ?? '';
    expect(slider).toContain(
      'await expectValue(page.getByRole("slider", { name: "Red", exact: true }).first(), "255",',
    );
    expect(slider).toContain('{ name: "Green", exact: true }).first(), "0",');
    expect(slider).toContain('{ name: "Hex", exact: true }).first(), "#ff0080",');
    expect(slider).toContain('"slider \\"Green\\" is focused").toBeFocused();');
    const spin = exported.get('spinbutton') ?? '';
    expect(spin).toContain('{ name: "Guests", exact: true }).first(), "2",');
    expect(spin).toContain('"button \\"Fewer guests\\" is enabled").toBeEnabled();');
    expect(spin).toContain('"button \\"Book\\" is enabled").toBeEnabled();');
    expect(spin).toContain('{ name: "Seating", exact: true }).first(), "Window table",');
    // The quote marks are the <q>'s CSS: the text asserted is the DOM's, around them.
    expect(spin).toContain(
      'getByText(/Our\\s+host\\s+says:\\s*Window\\s+tables\\s+seat\\s+two\\s+or\\s+more\\s*$/)',
    );
    expect(spin).not.toMatch(/[“”]/);
    expect(exported.get('grid')).toContain(
      'getByRole("gridcell", { name: "Bus ticket", exact: true }).first(), "gridcell \\"Bus ticket\\" is focused").toBeFocused();',
    );
    const tree = exported.get('tree') ?? '';
    expect(tree).toContain('"treeitem \\"report.pdf\\" is selected"');
    expect(tree).toContain('"status shows \\"report.pdf\\"").toHaveText("report.pdf");');
    const listbox = exported.get('listbox') ?? '';
    expect(listbox).toContain(
      'await expectActiveDescendant(page.getByRole("option", { name: "Plutonium"',
    );
    expect(listbox).toContain('.toHaveText("Plutonium picked");');
    // No text is a bare substring of a page: exact, or a regular expression.
    for (const text of exported.values()) {
      expect(text).not.toMatch(/getByText\("[^"]*"\)/);
    }
  });

  it(
    'type-checks with TypeScript in strict mode',
    async () => {
      const tsc = await started(typeCheck);
      expect(tsc.stdout + tsc.stderr).toBe('');
      expect(tsc.code).toBe(0);
    },
    scaled(240_000),
  );

  it(
    'passes on the pages, and fails on the same pages without their scripts',
    async () => {
      const {pages: real, changed: stripped} = await started(playwrightRuns);
      expect(Object.fromEntries(real.passed), real.output).toEqual(
        Object.fromEntries(Object.keys(SESSIONS).map(name => [name, true])),
      );
      expect(Object.fromEntries(stripped.passed)).toEqual(
        Object.fromEntries(Object.keys(SESSIONS).map(name => [name, false])),
      );
      expect(Object.keys(FAILS_AT).sort()).toEqual(Object.keys(SESSIONS).sort());
      // Every mismatch at once: the message of each test that failed for another reason.
      const reasons = Object.entries(FAILS_AT).map(([name, reason]) => {
        const message = stripped.failures.get(name) ?? '(no failure)';
        return [name, reason.test(message) ? 'as expected' : message.slice(0, 600)];
      });
      expect(Object.fromEntries(reasons)).toEqual(
        Object.fromEntries(Object.keys(FAILS_AT).map(name => [name, 'as expected'])),
      );
    },
    scaled(1_500_000),
  );
});
