import fs from 'node:fs';
import path from 'node:path';
import {describe, expect, it} from 'vitest';
import {z} from 'zod';
import {actionWaitBoundsFeature} from '../../../src/core/browser/input/waitBounds.js';
import {call, pageIdFrom, useEngineWithFixtures} from '../../helpers/engine.js';

const fx = useEngineWithFixtures({flags: ['--experimentalVision'], tmpPrefix: 'mbi-upload-'});

interface OpenedPage {
  id: number;
  snapshot: string;
}

async function open(pathname: string): Promise<OpenedPage> {
  const id = await fx.openPage(pathname);
  const snap = await call(fx.client, 'take_snapshot', {pageId: id});
  expect(snap.isError, snap.text).toBe(false);
  return {id, snapshot: snap.text};
}

/** The uid on the first snapshot line that contains every fragment. */
function uidOf(snapshot: string, ...fragments: string[]): string {
  const line = snapshot
    .split('\n')
    .find(candidate => fragments.every(fragment => candidate.includes(fragment)));
  const uid = line === undefined ? undefined : /^ *(\d+)/.exec(line)?.[1];
  if (uid === undefined) {
    throw new Error(`No snapshot line with ${JSON.stringify(fragments)} in:\n${snapshot}`);
  }
  return uid;
}

/** Runs a function in the page and returns its JSON result, parsed. */
async function evaluate(id: number, source: string): Promise<unknown> {
  const result = await call(fx.client, 'evaluate_script', {pageId: id, function: source});
  expect(result.isError, result.text).toBe(false);
  const json = /```json\n([\s\S]*?)\n```/.exec(result.text)?.[1];
  if (json === undefined) {
    throw new Error(`No JSON in:\n${result.text}`);
  }
  const value: unknown = JSON.parse(json);
  return value;
}

async function text(id: number, selector: string): Promise<unknown> {
  return evaluate(id, `() => document.querySelector(${JSON.stringify(selector)}).textContent`);
}

describe('click', () => {
  it('clicks, double clicks, and adds a snapshot only when asked', async () => {
    const {id, snapshot} = await open('/input-timing.html');
    const counter = uidOf(snapshot, 'button "Counter"');
    const clicked = await call(fx.client, 'click', {pageId: id, uid: counter});
    expect(clicked.isError, clicked.text).toBe(false);
    expect(clicked.text).toContain('Successfully clicked on the element');
    expect(clicked.text).not.toContain('## Latest page snapshot');
    expect(await text(id, '#log')).toBe('clicks 1');

    const doubled = await call(fx.client, 'click', {pageId: id, uid: counter, dblClick: true});
    expect(doubled.text).toContain('Successfully double clicked on the element');
    expect(await text(id, '#log')).toBe('double clicked');

    const withSnapshot = await call(fx.client, 'click', {
      pageId: id,
      uid: counter,
      includeSnapshot: true,
    });
    expect(withSnapshot.text).toContain('## Latest page snapshot');
    expect(withSnapshot.text).toContain('clicks 4');
  });

  it('waits for a disabled button to become enabled, and scrolls to far elements', async () => {
    const {id, snapshot} = await open('/input-timing.html?late=400');
    const late = await call(fx.client, 'click', {pageId: id, uid: uidOf(snapshot, '"Late"')});
    expect(late.isError, late.text).toBe(false);
    expect(await text(id, '#log')).toBe('late clicked');

    const far = await call(fx.client, 'click', {pageId: id, uid: uidOf(snapshot, '"Far away"')});
    expect(far.isError, far.text).toBe(false);
    expect(await text(id, '#log')).toBe('far clicked');
  });

  it('reports the navigation a click starts', async () => {
    const {id, snapshot} = await open('/input-timing.html?nav');
    const link = uidOf(snapshot, 'link "Go to other page"');
    const result = await call(fx.client, 'click', {pageId: id, uid: link});
    expect(result.isError, result.text).toBe(false);
    expect(result.text).toContain('Successfully clicked on the element');
    expect(result.text).toContain(`Page navigated to ${fx.server.url('/other.html')}.`);
    expect(await evaluate(id, '() => location.pathname')).toBe('/other.html');

    // uids of the old document are stale now.
    const stale = await call(fx.client, 'click', {pageId: id, uid: link});
    expect(stale.isError).toBe(true);
    expect(stale.text).toContain(`Element with uid ${link} no longer exists on the page.`);
  });

  it('waits for DOM updates the click starts before answering', async () => {
    const {id, snapshot} = await open('/input-timing.html?render');
    const result = await call(fx.client, 'click', {
      pageId: id,
      uid: uidOf(snapshot, 'button "Load items"'),
      includeSnapshot: true,
    });
    expect(result.isError, result.text).toBe(false);
    // The list renders in steps over ~200 ms; the snapshot must show the last row.
    expect(result.text).toContain('Row 8');
  });

  it('clicks and fills elements inside an iframe', async () => {
    const {id, snapshot} = await open('/input-waitfor.html?iframe');
    const clicked = await call(fx.client, 'click', {
      pageId: id,
      uid: uidOf(snapshot, 'button "Frame button"'),
    });
    expect(clicked.isError, clicked.text).toBe(false);
    const filled = await call(fx.client, 'fill', {
      pageId: id,
      uid: uidOf(snapshot, 'textbox "Frame field"'),
      value: 'inside',
    });
    expect(filled.isError, filled.text).toBe(false);
    expect(
      await evaluate(
        id,
        '() => { const doc = document.querySelector("iframe").contentDocument; return [doc.getElementById("inner").textContent, doc.getElementById("field").value]; }',
      ),
    ).toEqual(['Frame clicked', 'inside']);
  });

  it('selects a native <option> through its <select>', async () => {
    const {id, snapshot} = await open('/input-form.html?option');
    const green = uidOf(snapshot, 'option "Green"');
    const result = await call(fx.client, 'click', {pageId: id, uid: green});
    expect(result.isError, result.text).toBe(false);
    expect(await evaluate(id, '() => document.getElementById("color").value')).toBe('g');
    expect(await evaluate(id, '() => window.events.filter(e => e.startsWith("color:"))')).toEqual([
      'color:input',
      'color:change',
    ]);
  });

  it('explains missing snapshots, unknown uids and removed elements', async () => {
    const opened = await call(fx.client, 'new_page', {
      url: fx.server.url('/input-timing.html?bare'),
    });
    const id = pageIdFrom(opened.text, 'input-timing.html?bare');
    const noSnapshot = await call(fx.client, 'click', {pageId: id, uid: '1_1'});
    expect(noSnapshot.isError).toBe(true);
    expect(noSnapshot.text).toContain(
      `No snapshot found for page ${id}. Use take_snapshot to capture one.`,
    );

    const snapshot = (await call(fx.client, 'take_snapshot', {pageId: id})).text;
    const unknown = await call(fx.client, 'click', {pageId: id, uid: '99_99'});
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toContain(`Element uid "99_99" not found on page ${id}.`);

    const vanish = uidOf(snapshot, 'button "Vanish"');
    await call(fx.client, 'click', {pageId: id, uid: uidOf(snapshot, 'button "Remove vanish"')});
    const gone = await call(fx.client, 'click', {pageId: id, uid: vanish});
    expect(gone.isError).toBe(true);
    expect(gone.text).toContain(`Element with uid ${vanish} no longer exists on the page.`);
    expect(await text(id, '#log')).toBe('');
  });

  it('gives up on an element that never becomes interactive', async () => {
    const {id, snapshot} = await open('/input-timing.html?never');
    const never = uidOf(snapshot, 'button "Never"');
    const started = Date.now();
    const result = await call(fx.client, 'click', {pageId: id, uid: never});
    expect(result.isError).toBe(true);
    expect(result.text).toContain(
      `Failed to interact with the element with uid ${never}. The element did not become interactive within the configured timeout.`,
    );
    expect(result.text).toContain('It stayed disabled.');
    expect(Date.now() - started).toBeGreaterThanOrEqual(4_500);
  });
});

describe('click_at and hover', () => {
  /** The center of the element `selector` in the viewport, as an agent reads it off a screenshot. */
  async function centerOf(id: number, selector: string): Promise<{x: number; y: number}> {
    const center = await evaluate(
      id,
      `() => { const r = document.querySelector(${JSON.stringify(selector)}).getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }`,
    );
    const [x, y] = z.tuple([z.number(), z.number()]).parse(center);
    return {x, y};
  }

  it('clicks at viewport coordinates and names what was there', async () => {
    const {id, snapshot} = await open('/input-timing.html?at');
    const {x, y} = await centerOf(id, '#counter');
    const counter = uidOf(snapshot, 'button "Counter"');
    const result = await call(fx.client, 'click_at', {pageId: id, x, y});
    expect(result.isError, result.text).toBe(false);
    expect(result.text).toContain(
      `Successfully clicked at the coordinates. It landed on button "Counter" (uid ${counter}).`,
    );
    expect(await text(id, '#log')).toBe('clicks 1');
    const doubled = await call(fx.client, 'click_at', {pageId: id, x, y, dblClick: true});
    expect(doubled.text).toContain(
      `Successfully double clicked at the coordinates. It landed on button "Counter" (uid ${counter}).`,
    );
    expect(await text(id, '#log')).toBe('double clicked');
  });

  it('click_at says when what is at the point is not what the agent may have meant', async () => {
    const {id, snapshot} = await open('/actions/covered.html');
    const {x, y} = await centerOf(id, '#buy');
    const result = await call(fx.client, 'click_at', {pageId: id, x, y});
    expect(result.isError, result.text).toBe(false);
    expect(result.text).toContain(
      `It landed on dialog "Cookie consent" (uid ${uidOf(snapshot, 'dialog "Cookie consent"')}).`,
    );
    expect(await text(id, '#status')).toBe('Nothing bought');
    // Before any snapshot of the page: its accessible role and name.
    const fresh = await fx.openPage('/actions/covered.html');
    const unseen = await call(fx.client, 'click_at', {pageId: fresh, x, y});
    expect(unseen.text).toContain(
      'It landed on dialog "Cookie consent" (not in the latest snapshot).',
    );
  });

  it('hovers over an element', async () => {
    const {id, snapshot} = await open('/input-timing.html?hover');
    const result = await call(fx.client, 'hover', {
      pageId: id,
      uid: uidOf(snapshot, '"Hover me"'),
      includeSnapshot: true,
    });
    expect(result.isError, result.text).toBe(false);
    expect(result.text).toContain('Successfully hovered over the element');
    expect(result.text).toContain('Tooltip shown');
  });
});

describe('fill and fill_form', () => {
  it('types into inputs, textareas and contenteditables like a user: keys, input, then change on leaving', async () => {
    const {id, snapshot} = await open('/input-form.html?text');
    const cases: [string, string, string][] = [
      [uidOf(snapshot, 'textbox "Name"'), 'Ada Lovelace', 'name'],
      [uidOf(snapshot, 'textbox "Email"'), 'ada@example.com', 'email'],
      [uidOf(snapshot, 'spinbutton "Age"'), '36', 'age'],
      [uidOf(snapshot, 'textbox "Bio"'), 'Line one\nLine two', 'bio'],
    ];
    for (const [uid, value] of cases) {
      const result = await call(fx.client, 'fill', {pageId: id, uid, value});
      expect(result.isError, result.text).toBe(false);
      expect(result.text).toContain('Successfully filled out the element');
    }
    expect(
      await evaluate(
        id,
        '() => ["name", "email", "age", "bio"].map(id => document.getElementById(id).value)',
      ),
    ).toEqual(['Ada Lovelace', 'ada@example.com', '36', 'Line one\nLine two']);

    const notes = await call(fx.client, 'fill', {
      pageId: id,
      uid: uidOf(snapshot, 'textbox "Notes"'),
      value: 'final notes',
    });
    expect(notes.isError, notes.text).toBe(false);
    expect(await text(id, '#notes')).toBe('final notes');
    // One keyup per typed character; change once focus moved on (the next fill), as for a user.
    const events = z.array(z.string()).parse(await evaluate(id, '() => window.events'));
    for (const [, value, elementId] of cases) {
      expect(events).toContain(`${elementId}:input`);
      expect(events).toContain(`${elementId}:change`);
      expect(events.filter(event => event === `${elementId}:keyup`)).toHaveLength(value.length);
    }
    expect(events.filter(event => event === 'name:change')).toHaveLength(1);

    const cleared = await call(fx.client, 'fill', {pageId: id, uid: cases[0]?.[0], value: ''});
    expect(cleared.isError, cleared.text).toBe(false);
    expect(await evaluate(id, '() => document.getElementById("name").value')).toBe('');

    const date = await call(fx.client, 'fill', {
      pageId: id,
      uid: uidOf(snapshot, '"Birthday"'),
      value: '2024-05-31',
    });
    expect(date.isError, date.text).toBe(false);
    expect(await evaluate(id, '() => document.getElementById("birthday").value')).toBe(
      '2024-05-31',
    );
  });

  it('chooses select options by visible text and lists the options when none matches', async () => {
    const {id, snapshot} = await open('/input-form.html?select');
    const color = uidOf(snapshot, 'combobox "Color"');
    const result = await call(fx.client, 'fill', {pageId: id, uid: color, value: 'Blue'});
    expect(result.isError, result.text).toBe(false);
    expect(await evaluate(id, '() => document.getElementById("color").value')).toBe('b');

    const missing = await call(fx.client, 'fill', {pageId: id, uid: color, value: 'Purple'});
    expect(missing.isError).toBe(true);
    expect(missing.text).toContain(
      `Failed to interact with the element with uid ${color}. Could not find option with text "Purple".`,
    );
    expect(missing.text).toContain('"Red", "Green", "Blue"');
  });

  it('sets checkboxes, radios and switches from "true"/"false"', async () => {
    const {id, snapshot} = await open('/input-form.html?toggles');
    const subscribe = uidOf(snapshot, 'checkbox "Subscribe"');
    const fills: [string, string][] = [
      [subscribe, 'true'],
      [uidOf(snapshot, 'radio "Large"'), 'true'],
      [uidOf(snapshot, 'switch "Dark mode"'), 'true'],
    ];
    for (const [uid, value] of fills) {
      const result = await call(fx.client, 'fill', {pageId: id, uid, value});
      expect(result.isError, result.text).toBe(false);
    }
    expect(
      await evaluate(
        id,
        '() => [document.getElementById("subscribe").checked, document.getElementById("large").checked, document.getElementById("small").checked, document.getElementById("dark").getAttribute("aria-checked")]',
      ),
    ).toEqual([true, true, false, 'true']);

    // Filling the state it already has changes nothing; "false" unchecks.
    await call(fx.client, 'fill', {pageId: id, uid: subscribe, value: 'true'});
    expect(await evaluate(id, '() => document.getElementById("subscribe").checked')).toBe(true);
    await call(fx.client, 'fill', {pageId: id, uid: subscribe, value: 'false'});
    expect(await evaluate(id, '() => document.getElementById("subscribe").checked')).toBe(false);

    const wrong = await call(fx.client, 'fill', {pageId: id, uid: subscribe, value: 'yes'});
    expect(wrong.isError).toBe(true);
    expect(wrong.text).toContain(
      'Checkboxes, radio boxes and toggles require "true" or "false" value, but yes was used',
    );
  });

  it('checks a checkbox whose native input is hidden behind a styled one', async () => {
    const {id, snapshot} = await open('/input-form.html?hidden');
    const terms = uidOf(snapshot, 'checkbox "Accept terms"');
    const result = await call(fx.client, 'fill', {pageId: id, uid: terms, value: 'true'});
    expect(result.isError, result.text).toBe(false);
    expect(await evaluate(id, '() => document.getElementById("terms").checked')).toBe(true);
  });

  it('fills a whole form in one call', async () => {
    const {id, snapshot} = await open('/input-form.html?form');
    const result = await call(fx.client, 'fill_form', {
      pageId: id,
      elements: [
        {uid: uidOf(snapshot, 'textbox "Name"'), value: 'Grace'},
        {uid: uidOf(snapshot, 'combobox "Color"'), value: 'Green'},
        {uid: uidOf(snapshot, 'checkbox "Subscribe"'), value: 'true'},
        {uid: uidOf(snapshot, 'radio "Large"'), value: 'true'},
      ],
      includeSnapshot: true,
    });
    expect(result.isError, result.text).toBe(false);
    expect(result.text).toContain('Successfully filled out the form');
    expect(result.text).toContain('## Latest page snapshot');
    expect(
      await evaluate(
        id,
        '() => [document.getElementById("name").value, document.getElementById("color").value, document.getElementById("subscribe").checked, document.getElementById("large").checked]',
      ),
    ).toEqual(['Grace', 'g', true, true]);
  });
});

describe('fill_form and dialogs', () => {
  it('stops at the element that opened a dialog and leaves the rest unfilled', async () => {
    const {id, snapshot} = await open('/input-form.html?formdialog');
    const alerting = uidOf(snapshot, 'textbox "Alerting"');
    const result = await call(fx.client, 'fill_form', {
      pageId: id,
      elements: [
        {uid: alerting, value: 'boom'},
        {uid: uidOf(snapshot, 'textbox "Name"'), value: 'never'},
      ],
    });
    expect(result.isError, result.text).toBe(false);
    expect(result.text).toContain(
      `Filling out the element with uid ${alerting} opened a dialog. The remaining elements were not filled out.`,
    );
    expect(result.text).toContain('alert: Changed to boom.');
    const handled = await call(fx.client, 'handle_dialog', {pageId: id, action: 'accept'});
    expect(handled.isError, handled.text).toBe(false);
    expect(await evaluate(id, '() => document.getElementById("name").value')).toBe('old');
    expect(await evaluate(id, '() => document.getElementById("alerting").value')).toBe('boom');
  });
});

describe('keyboard', () => {
  it('types into the focused element and presses the submit key', async () => {
    const {id, snapshot} = await open('/input-keys.html?type');
    await call(fx.client, 'click', {pageId: id, uid: uidOf(snapshot, 'textbox "Query"')});
    const result = await call(fx.client, 'type_text', {
      pageId: id,
      text: 'héllo World!',
      submitKey: 'Enter',
    });
    expect(result.isError, result.text).toBe(false);
    expect(result.text).toContain('Typed text "héllo World! + Enter"');
    expect(await text(id, '#result')).toBe('Searched: héllo World!');
    const log = await evaluate(id, '() => window.keyLog');
    expect(log).toContain('down:W:KeyW');
    expect(log).toContain('down:Enter:Enter');
  });

  it('presses combinations with modifiers held, and releases them', async () => {
    const {id, snapshot} = await open('/input-keys.html?combo');
    await call(fx.client, 'click', {pageId: id, uid: uidOf(snapshot, 'textbox "Keys"')});
    const pressed = await call(fx.client, 'press_key', {pageId: id, key: 'Control+Shift+R'});
    expect(pressed.isError, pressed.text).toBe(false);
    expect(pressed.text).toContain('Successfully pressed key: Control+Shift+R');
    const plus = await call(fx.client, 'press_key', {pageId: id, key: 'Control++'});
    expect(plus.isError, plus.text).toBe(false);
    await call(fx.client, 'press_key', {pageId: id, key: 'a'});
    const log = await evaluate(id, '() => window.keyLog');
    expect(log).toEqual([
      'down:Control+Control:ControlLeft',
      'down:Control+Shift+Shift:ShiftLeft',
      'down:Control+Shift+R:KeyR',
      'up:Control+Shift+R',
      'up:Control+Shift',
      'up:Control',
      'down:Control+Control:ControlLeft',
      'down:Control++:Equal',
      'up:Control++',
      'up:Control',
      'down:a:KeyA',
      'up:a',
    ]);
  });

  it('edits like a keyboard: Shift types capitals, Control+A selects all', async () => {
    const {id, snapshot} = await open('/input-keys.html?edit');
    await call(fx.client, 'click', {pageId: id, uid: uidOf(snapshot, 'textbox "Keys"')});
    await call(fx.client, 'press_key', {pageId: id, key: 'Shift+a'});
    await call(fx.client, 'type_text', {pageId: id, text: 'bc'});
    expect(await evaluate(id, '() => document.getElementById("keys").value')).toBe('Abc');
    await call(fx.client, 'press_key', {pageId: id, key: 'Control+A'});
    await call(fx.client, 'press_key', {pageId: id, key: 'Backspace'});
    expect(await evaluate(id, '() => document.getElementById("keys").value')).toBe('');
  });

  it('rejects unknown keys before pressing anything', async () => {
    const {id} = await open('/input-keys.html?bad');
    const result = await call(fx.client, 'press_key', {pageId: id, key: 'Control+Foo'});
    expect(result.isError).toBe(true);
    expect(result.text).toContain('"Foo" is not a valid key.');
    expect(await evaluate(id, '() => window.keyLog')).toEqual([]);
  });
});

describe('drag', () => {
  it('drags an element onto a drop target', async () => {
    const {id, snapshot} = await open('/input-drag.html');
    const result = await call(fx.client, 'drag', {
      pageId: id,
      from_uid: uidOf(snapshot, '"Card"'),
      to_uid: uidOf(snapshot, '"Drop here"'),
    });
    expect(result.isError, result.text).toBe(false);
    expect(result.text).toContain('Dragged "Card"');
    expect(await text(id, '#status')).toBe('Dropped card-42');
  });
});

describe('upload_file', () => {
  function file(name: string, content: string): string {
    const target = path.join(fx.tmp, name);
    fs.writeFileSync(target, content);
    return target;
  }

  async function uploaded(id: number): Promise<unknown> {
    // The page reads the files asynchronously; wait for its output in the page.
    return evaluate(
      id,
      `async () => { for (let i = 0; i < 1000 && !document.getElementById('out').textContent; i++) await new Promise(r => setTimeout(r, 10)); return document.getElementById('out').textContent; }`,
    );
  }

  it('sets files on file inputs and reads them back in the page', async () => {
    const a = file('a.txt', 'alpha');
    const b = file('b.txt', 'beta');
    const {id, snapshot} = await open('/input-upload.html?direct');
    const single = await call(fx.client, 'upload_file', {
      pageId: id,
      uid: uidOf(snapshot, '"Single"'),
      filePaths: [a],
    });
    expect(single.isError, single.text).toBe(false);
    expect(single.text).toContain(`File uploaded from ${fs.realpathSync(a)}.`);
    expect(await uploaded(id)).toBe('single: a.txt=alpha');

    await evaluate(id, '() => { document.getElementById("out").textContent = ""; return 0; }');
    const many = await call(fx.client, 'upload_file', {
      pageId: id,
      uid: uidOf(snapshot, '"Many"'),
      filePaths: [a, b],
    });
    expect(many.isError, many.text).toBe(false);
    expect(await uploaded(id)).toBe('many: a.txt=alpha, b.txt=beta');

    const tooMany = await call(fx.client, 'upload_file', {
      pageId: id,
      uid: uidOf(snapshot, '"Single"'),
      filePaths: [a, b],
    });
    expect(tooMany.isError).toBe(true);
    expect(tooMany.text).toContain(
      'Multiple file uploads only work with <input type=file multiple>',
    );
  });

  it('answers the file chooser an upload button opens', async () => {
    const c = file('c.txt', 'gamma');
    const {id, snapshot} = await open('/input-upload.html?chooser');
    const result = await call(fx.client, 'upload_file', {
      pageId: id,
      uid: uidOf(snapshot, 'button "Choose file"'),
      filePaths: [c],
    });
    expect(result.isError, result.text).toBe(false);
    expect(await uploaded(id)).toBe('hidden: c.txt=gamma');

    // The button opens no chooser at all: a wait of 0.5 s instead of the product's 3 s ends the
    // same way, sooner.
    actionWaitBoundsFeature.get(fx.engine.engine.browser.pages.byId(id)).fileChooserMs = 500;
    const inert = await call(fx.client, 'upload_file', {
      pageId: id,
      uid: uidOf(snapshot, 'button "Does nothing"'),
      filePaths: [c],
    });
    expect(inert.isError).toBe(true);
    expect(inert.text).toContain(
      'Failed to upload file. The element could not accept the file directly, and clicking it did not trigger a file chooser.',
    );

    // A button the click cannot reach: the answer is what covers it, not "no chooser".
    actionWaitBoundsFeature.get(fx.engine.engine.browser.pages.byId(id)).coveredMaxMs = 300;
    const veiled = await call(fx.client, 'upload_file', {
      pageId: id,
      uid: uidOf(snapshot, 'button "Upload under a veil"'),
      filePaths: [c],
    });
    expect(veiled.isError).toBe(true);
    expect(veiled.text).toContain('would land on div#veil "Veil" instead: it covers the element');
    expect(veiled.text).not.toContain('did not trigger a file chooser');
  });

  it('checks file paths against the allowed roots for a local browser', async () => {
    const {id, snapshot} = await open('/input-upload.html?roots');
    const result = await call(fx.client, 'upload_file', {
      pageId: id,
      uid: uidOf(snapshot, '"Single"'),
      filePaths: ['/etc/hostname'],
    });
    expect(result.isError).toBe(true);
    expect(result.text).toContain('Access denied');
  });
});

describe('dialogs', () => {
  it('reports a dialog a click opens, blocks other tools, and accepts it', async () => {
    const {id, snapshot} = await open('/dialogs.html?alert');
    const opened = await call(fx.client, 'click', {
      pageId: id,
      uid: uidOf(snapshot, 'button "Alert"'),
    });
    expect(opened.isError, opened.text).toBe(false);
    expect(opened.text).toContain('The element was clicked and it opened a dialog.');
    expect(opened.text).toContain(
      '# Open dialog\nalert: Hello alert.\nCall handle_dialog to handle it before continuing.',
    );

    const blocked = await call(fx.client, 'click', {
      pageId: id,
      uid: uidOf(snapshot, 'button "Alert"'),
    });
    expect(blocked.isError).toBe(true);
    expect(blocked.text).toContain('A dialog is open (alert: Hello alert).');
    const blockedWait = await call(fx.client, 'wait_for', {pageId: id, text: ['x']});
    expect(blockedWait.text).toContain('A dialog is open (alert: Hello alert).');

    const accepted = await call(fx.client, 'handle_dialog', {pageId: id, action: 'accept'});
    expect(accepted.isError, accepted.text).toBe(false);
    expect(accepted.text).toContain('Successfully accepted the dialog');
    expect(accepted.text).toContain('## Pages');
    expect(accepted.text).not.toContain('# Open dialog');

    const none = await call(fx.client, 'handle_dialog', {pageId: id, action: 'accept'});
    expect(none.isError).toBe(true);
    expect(none.text).toContain('No open dialog found');
  });

  it('accepts and dismisses confirms, and answers prompts', async () => {
    const {id, snapshot} = await open('/dialogs.html?confirm');
    const confirmButton = uidOf(snapshot, 'button "Confirm"');
    await call(fx.client, 'click', {pageId: id, uid: confirmButton});
    const dismissed = await call(fx.client, 'handle_dialog', {pageId: id, action: 'dismiss'});
    expect(dismissed.text).toContain('Successfully dismissed the dialog');
    expect(await text(id, '#result')).toBe('false');

    await call(fx.client, 'click', {pageId: id, uid: confirmButton});
    await call(fx.client, 'handle_dialog', {pageId: id, action: 'accept'});
    expect(await text(id, '#result')).toBe('true');

    const prompt = await call(fx.client, 'click', {
      pageId: id,
      uid: uidOf(snapshot, 'button "Prompt"'),
    });
    expect(prompt.text).toContain('prompt: Your name? (default value: "Ada").');
    await call(fx.client, 'handle_dialog', {pageId: id, action: 'accept', promptText: 'Grace'});
    expect(await text(id, '#result')).toBe('Grace');
  });
});
