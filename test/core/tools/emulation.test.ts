import type {IncomingHttpHeaders} from 'node:http';
import {describe, expect, it} from 'vitest';
import {slowdownFeature} from '../../../src/core/browser/timeouts.js';
import {call, pageIdFrom, startEngine, useEngineWithFixtures} from '../../helpers/engine.js';

const seenHeaders: IncomingHttpHeaders[] = [];
const fx = useEngineWithFixtures({
  routes: server => {
    server.route('/headers', (request, response) => {
      seenHeaders.push(request.headers);
      response.writeHead(200, {'Content-Type': 'text/plain', 'Cache-Control': 'no-store'});
      response.end('ok');
    });
  },
});

let opened = 0;
async function openProbe(): Promise<number> {
  return fx.openPage(`/emulation-probe.html?n=${++opened}`);
}

/** Runs a function in the page and returns its JSON result, plus the whole response text. */
async function evaluate(pageId: number, fn: string): Promise<{value: unknown; text: string}> {
  const {text, isError} = await call(fx.client, 'evaluate_script', {pageId, function: fn});
  expect(isError, text).toBe(false);
  const json = /```json\n([\s\S]*?)\n```/.exec(text)?.[1];
  if (json === undefined) {
    throw new Error(`No JSON result in:\n${text}`);
  }
  return {value: JSON.parse(json), text};
}

async function emulate(pageId: number, args: Record<string, unknown>): Promise<string> {
  const {text, isError} = await call(fx.client, 'emulate', {pageId, ...args});
  expect(isError, text).toBe(false);
  return text;
}

function pageState(pageId: number) {
  return fx.engine.engine.browser.pages.byId(pageId);
}

const MEDIA = `() => ({
  dark: matchMedia('(prefers-color-scheme: dark)').matches,
  light: matchMedia('(prefers-color-scheme: light)').matches,
  forced: matchMedia('(forced-colors: active)').matches,
  more: matchMedia('(prefers-contrast: more)').matches,
  reduce: matchMedia('(prefers-reduced-motion: reduce)').matches,
})`;

describe('emulate', () => {
  it('sets the user agent, echoes it in later responses, and "" or omission restores it', async () => {
    const id = await openProbe();
    const original = (await evaluate(id, '() => navigator.userAgent')).value;
    expect(original).toMatch(/Chrome/);

    const set = await emulate(id, {userAgent: 'ProbeAgent/1.0'});
    expect(set).toContain('Emulation configured successfully');
    expect(set).toContain('Emulating user agent: ProbeAgent/1.0');
    const read = await evaluate(id, '() => navigator.userAgent');
    expect(read.value).toBe('ProbeAgent/1.0');
    // An unrelated later tool repeats the active emulation.
    expect(read.text).toContain('Emulating user agent: ProbeAgent/1.0');
    const snapshot = await call(fx.client, 'take_snapshot', {pageId: id});
    expect(snapshot.text).toMatch(
      /Emulating user agent: ProbeAgent\/1\.0[\s\S]*## Latest page snapshot/,
    );

    const cleared = await emulate(id, {userAgent: ''});
    expect(cleared).toContain('Emulation cleared: the page runs with its defaults.');
    expect(cleared).not.toContain('Emulating');
    const after = await evaluate(id, '() => navigator.userAgent');
    expect(after.value).toBe(original);
    expect(after.text).not.toContain('Emulating');
  });

  it('emulates color scheme, forced colors, contrast and reduced motion, and resets omitted ones', async () => {
    const id = await openProbe();
    const all = await emulate(id, {
      colorScheme: 'dark',
      forcedColors: 'active',
      prefersContrast: 'more',
      prefersReducedMotion: 'reduce',
    });
    for (const line of [
      'Emulating color scheme: dark',
      'Emulating forced-colors: active',
      'Emulating prefers-contrast: more',
      'Emulating prefers-reduced-motion: reduce',
    ]) {
      expect(all).toContain(line);
    }
    expect((await evaluate(id, MEDIA)).value).toEqual({
      dark: true,
      light: false,
      forced: true,
      more: true,
      reduce: true,
    });
    const background = await evaluate(id, '() => getComputedStyle(document.body).backgroundColor');
    expect(background.value).not.toBe('rgb(255, 255, 255)');

    // Only colorScheme given: the other three go back to the defaults.
    const light = await emulate(id, {colorScheme: 'light'});
    expect(light).toContain('Emulating color scheme: light');
    expect(light).not.toContain('forced-colors');
    expect(light).not.toContain('prefers-contrast');
    expect((await evaluate(id, MEDIA)).value).toEqual({
      dark: false,
      light: true,
      forced: false,
      more: false,
      reduce: false,
    });

    const auto = await emulate(id, {colorScheme: 'auto'});
    expect(auto).not.toContain('color scheme');
  });

  it('emulates geolocation for a page allowed to read it, and clears it', async () => {
    const id = await openProbe();
    await pageState(id)
      .page.browserContext()
      .setPermission(fx.server.origin, {permission: {name: 'geolocation'}, state: 'granted'});
    const text = await emulate(id, {geolocation: '48.8584, 2.2945'});
    expect(text).toContain('Emulating geolocation: latitude=48.8584, longitude=2.2945');
    const position = await evaluate(
      id,
      `() => new Promise(resolve => navigator.geolocation.getCurrentPosition(
        p => resolve([p.coords.latitude, p.coords.longitude]),
        e => resolve('error ' + e.code),
        {timeout: 5000}))`,
    );
    expect(position.value).toEqual([48.8584, 2.2945]);

    const cleared = await emulate(id, {});
    expect(cleared).not.toContain('geolocation');
    const after = await evaluate(
      id,
      `() => new Promise(resolve => navigator.geolocation.getCurrentPosition(
        p => resolve([p.coords.latitude, p.coords.longitude]),
        e => resolve('error ' + e.code),
        {timeout: 1000, maximumAge: 0}))`,
    );
    expect(after.value).not.toEqual([48.8584, 2.2945]);
  });

  it('emulates a mobile touch viewport (reloading once) and clears it', async () => {
    const id = await openProbe();
    const before = (await evaluate(id, '() => [innerWidth, devicePixelRatio]')).value;
    const text = await emulate(id, {viewport: '390x844x3,mobile,touch'});
    expect(text).toContain('Emulating viewport: 390x844x3,mobile,touch');
    expect(text).toContain('The page was reloaded so that mobile/touch emulation takes effect.');
    const read = await evaluate(
      id,
      `() => ({width: innerWidth, dpr: devicePixelRatio, touchPoints: navigator.maxTouchPoints > 0,
        touch: document.getElementById('touch').textContent, coarse: matchMedia('(pointer: coarse)').matches,
        orientation: screen.orientation.type})`,
    );
    expect(read.value).toEqual({
      width: 390,
      dpr: 3,
      touchPoints: true,
      touch: 'touch events supported',
      coarse: true,
      orientation: 'portrait-primary',
    });

    // Same mobile/touch state: no reload needed; landscape shows in the orientation.
    const landscape = await emulate(id, {viewport: '844x390x2,mobile,touch,landscape'});
    expect(landscape).not.toContain('reloaded');
    const turned = await evaluate(
      id,
      '() => [innerWidth, devicePixelRatio, screen.orientation.type]',
    );
    expect(turned.value).toEqual([844, 2, 'landscape-primary']);

    const cleared = await emulate(id, {});
    expect(cleared).toContain('The page was reloaded');
    expect((await evaluate(id, '() => [innerWidth, devicePixelRatio]')).value).toEqual(before);
    expect((await evaluate(id, "() => document.getElementById('touch').textContent")).value).toBe(
      'no touch events',
    );
  });

  it('sends extra headers on every request until "" clears them, even across other emulate calls', async () => {
    const id = await openProbe();
    const set = await emulate(id, {extraHttpHeaders: '{"X-Probe": "one", "X-Other": "two"}'});
    expect(set).toContain('Sending extra HTTP headers: X-Probe, X-Other');
    seenHeaders.length = 0;
    await evaluate(id, "async () => (await fetch('/headers')).text()");
    expect(seenHeaders.at(-1)?.['x-probe']).toBe('one');

    // Omitted: the headers stay while the rest is replaced.
    const other = await emulate(id, {colorScheme: 'dark'});
    expect(other).toContain('Sending extra HTTP headers: X-Probe, X-Other');
    await call(fx.client, 'navigate_page', {pageId: id, url: fx.server.url('/headers')});
    expect(seenHeaders.at(-1)?.['x-other']).toBe('two');

    const cleared = await emulate(id, {extraHttpHeaders: ''});
    expect(cleared).not.toContain('Sending extra HTTP headers');
    await call(fx.client, 'navigate_page', {pageId: id, type: 'reload'});
    expect(seenHeaders.at(-1)?.['x-probe']).toBeUndefined();
  });

  it('goes offline and throttles the network, scaling the navigation timeout', async () => {
    const id = await openProbe();
    const offline = await emulate(id, {networkConditions: 'Offline'});
    expect(offline).toContain(
      'Emulating network conditions: Offline\nDefault navigation timeout set to 10000 ms',
    );
    const failed = await evaluate(
      id,
      "() => fetch('/headers').then(r => r.text()).then(() => 'loaded', () => 'failed')",
    );
    expect(failed.value).toBe('failed');
    expect(failed.text).toContain('Emulating network conditions: Offline');

    const slow = await emulate(id, {networkConditions: 'Slow 3G'});
    expect(slow).toContain(
      'Emulating network conditions: Slow 3G\nDefault navigation timeout set to 100000 ms',
    );
    expect(slowdownFeature.get(pageState(id))).toEqual({cpu: 1, network: 10});
    const throttled = await evaluate(id, "() => fetch('/headers').then(r => r.text())");
    expect(throttled.value).toBe('ok');

    await emulate(id, {});
    expect(slowdownFeature.get(pageState(id))).toEqual({cpu: 1, network: 1});
    const online = await evaluate(
      id,
      "() => fetch('/headers').then(r => r.text()).then(() => 'loaded', () => 'failed')",
    );
    expect(online.value).toBe('loaded');
    expect(online.text).not.toContain('Emulating');
  });

  it('throttles the CPU: echoed with the scaled timeout, and every wait scales with it', async () => {
    const id = await openProbe();
    const cpu = await emulate(id, {cpuThrottlingRate: 4});
    expect(cpu).toContain(
      'Emulating CPU throttling: 4x slowdown\nDefault navigation timeout set to 40000 ms',
    );
    expect(slowdownFeature.get(pageState(id))).toEqual({cpu: 4, network: 1});

    const both = await emulate(id, {cpuThrottlingRate: 4, networkConditions: 'Fast 3G'});
    expect(both).toContain(
      'Emulating network conditions: Fast 3G\nDefault navigation timeout set to 200000 ms',
    );
    expect(both).toContain('Emulating CPU throttling: 4x slowdown');
    expect(slowdownFeature.get(pageState(id))).toEqual({cpu: 4, network: 5});

    const none = await emulate(id, {cpuThrottlingRate: 1});
    expect(none).not.toContain('CPU throttling');
    expect(slowdownFeature.get(pageState(id))).toEqual({cpu: 1, network: 1});
  });

  it('echoes only on the emulated page', async () => {
    const emulated = await openProbe();
    const plain = await openProbe();
    await emulate(emulated, {colorScheme: 'dark'});
    const other = await evaluate(plain, '() => 1');
    expect(other.text).not.toContain('Emulating');
    const same = await call(fx.client, 'take_snapshot', {pageId: emulated});
    expect(same.text).toContain('Emulating color scheme: dark');
  });

  it('refuses bad strings with the accepted format, leaving the emulation unchanged', async () => {
    const id = await openProbe();
    await emulate(id, {userAgent: 'Kept/1'});
    const cases: [Record<string, unknown>, string][] = [
      [
        {viewport: 'abc'},
        'Invalid viewport "abc": width and height must be positive whole numbers.',
      ],
      [{viewport: '0x100'}, 'Invalid viewport "0x100"'],
      [{viewport: '100x100x0'}, 'Invalid devicePixelRatio in viewport "100x100x0"'],
      [
        {viewport: '100x100,tablet'},
        'Unknown viewport option "tablet" in "100x100,tablet": use mobile, touch or landscape.',
      ],
      [{geolocation: 'north'}, 'Invalid geolocation "north". Expected "<latitude>,<longitude>"'],
      [{geolocation: '91,0'}, 'Invalid geolocation "91,0"'],
      [{geolocation: '1,2,3'}, 'Invalid geolocation "1,2,3"'],
      [{extraHttpHeaders: 'not json'}, 'Invalid JSON for extraHttpHeaders:'],
      [{extraHttpHeaders: '[1]'}, 'Invalid extraHttpHeaders: not a JSON object.'],
      [{extraHttpHeaders: '{"X-A": 1}'}, 'Invalid extraHttpHeaders: every value must be a string.'],
      [{extraHttpHeaders: '{"bad name": "x"}'}, 'Invalid header name "bad name".'],
      [
        {extraHttpHeaders: '{"X-A": "a\\r\\nX-B: b"}'},
        'Invalid value for header "X-A": line breaks and control characters are not allowed.',
      ],
      [
        {userAgent: 'Agent\nError: injected'},
        'Invalid userAgent: line breaks and control characters are not allowed.',
      ],
    ];
    for (const [args, message] of cases) {
      const {text, isError} = await call(fx.client, 'emulate', {pageId: id, ...args});
      expect(isError, text).toBe(true);
      expect(text).toContain(message);
      expect(text).toMatch(/Expected |use mobile|not allowed/);
      // The failed call changed nothing: the earlier emulation is still active and echoed.
      expect(text).toContain('Emulating user agent: Kept/1');
    }
    expect((await evaluate(id, '() => navigator.userAgent')).value).toBe('Kept/1');

    const tooFast = await call(fx.client, 'emulate', {pageId: id, cpuThrottlingRate: 21});
    expect(tooFast.isError).toBe(true);
    expect(tooFast.text).toContain('cpuThrottlingRate');
    const unknownNetwork = await call(fx.client, 'emulate', {pageId: id, networkConditions: '5G'});
    expect(unknownNetwork.isError).toBe(true);
    expect(unknownNetwork.text).toContain('Slow 3G');
  });
});

describe('resize_page', () => {
  it('resizes the content area and reads the size back from the page', async () => {
    const id = await openProbe();
    const text = (await call(fx.client, 'resize_page', {pageId: id, width: 700, height: 500})).text;
    expect(text).toContain('Resized the page to 700x500.');
    expect((await evaluate(id, '() => [innerWidth, innerHeight]')).value).toEqual([700, 500]);

    const bigger = await call(fx.client, 'resize_page', {pageId: id, width: 900, height: 650});
    expect(bigger.text).toContain('Resized the page to 900x650.');
  });

  it('says when an emulated viewport still decides the page size', async () => {
    const id = await openProbe();
    await emulate(id, {viewport: '400x300'});
    const text = (await call(fx.client, 'resize_page', {pageId: id, width: 800, height: 600})).text;
    expect(text).toContain('Note: the emulated viewport 400x300x1 still decides the page size.');
    expect(text).toContain('Emulating viewport: 400x300x1');
    await emulate(id, {});
    expect((await evaluate(id, '() => [innerWidth, innerHeight]')).value).toEqual([800, 600]);
  });

  it('keeps the --viewport size when emulation is cleared, and says it decides the page size', async () => {
    const sized = await startEngine(['--viewport', '500x400']);
    try {
      const other = await sized.connect();
      const opened = await call(other, 'new_page', {
        url: fx.server.url('/emulation-probe.html?vp'),
      });
      const id = pageIdFrom(opened.text, 'emulation-probe.html?vp');
      const size = async (): Promise<string> =>
        (
          await call(other, 'evaluate_script', {
            pageId: id,
            function: '() => [innerWidth, innerHeight]',
          })
        ).text;
      expect(await size()).toContain('[500,400]');
      await call(other, 'emulate', {pageId: id, viewport: '300x200'});
      expect(await size()).toContain('[300,200]');
      const cleared = await call(other, 'emulate', {pageId: id});
      expect(cleared.text).not.toContain('Emulating viewport');
      expect(await size()).toContain('[500,400]');
      const resized = await call(other, 'resize_page', {pageId: id, width: 800, height: 600});
      expect(resized.text).toContain(
        'Note: the emulated viewport 500x400 (--viewport) still decides the page size.',
      );
    } finally {
      await sized.stop();
    }
  });

  it('rejects sizes that are not positive whole numbers', async () => {
    const id = await openProbe();
    const bad = await call(fx.client, 'resize_page', {pageId: id, width: 0, height: 10.5});
    expect(bad.isError).toBe(true);
    expect(bad.text).toContain('width');
    expect(bad.text).toContain('height');
  });
});
