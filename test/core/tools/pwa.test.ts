/**
 * The PWA category against real headless Chromium and the fixture app in
 * test/fixtures/pages/pwa (a manifest with an id, a start URL, an icon and a file handler for
 * .mbi files; its page sets an app badge of 3).
 */
import {describe, expect, it} from 'vitest';
import {call, useEngineWithFixtures, waitFor} from '../../helpers/engine.js';

const fx = useEngineWithFixtures({flags: ['--categoryPwa']});

describe('PWA tools', () => {
  it('installs, reports OS state, launches and uninstalls the fixture app', async () => {
    await fx.openPage('/index.html');
    const manifestId = fx.server.url('/pwa/');
    const installUrl = fx.server.url('/pwa/index.html');

    const installed = await call(fx.client, 'install_pwa', {
      manifestId,
      installUrlOrBundleUrl: installUrl,
      displayMode: 'standalone',
    });
    expect(installed.isError, installed.text).toBe(false);
    expect(installed.text).toContain(
      `Installed PWA with manifest ID: ${manifestId}\nDisplay mode set to: standalone`,
    );

    const state = await call(fx.client, 'get_os_app_state', {manifestId});
    expect(state.isError, state.text).toBe(false);
    expect(state.text).toContain(`OS app state for manifest ID: ${manifestId}\nBadge count: 0`);
    expect(state.text).toContain('"fileExtensions":[".mbi"]');
    expect(state.text).toContain(`"action":"${installUrl}"`);

    const launched = await call(fx.client, 'launch_pwa', {manifestId});
    expect(launched.isError, launched.text).toBe(false);
    expect(launched.text).toContain(`Launched PWA with manifest ID: ${manifestId} (${installUrl})`);
    // Listed like any page (and, as in chrome-devtools-mcp, not selected by the launch).
    expect(launched.text).toMatch(new RegExp(`^\\d+: MBI PWA \\(${installUrl}\\)$`, 'm'));

    // The app page sets its badge once it runs as an installed app.
    const badged = await waitFor(async () => {
      const {text} = await call(fx.client, 'get_os_app_state', {manifestId});
      return text.includes('Badge count: 3') ? text : undefined;
    });
    expect(badged).toContain('Badge count: 3');

    const removed = await call(fx.client, 'uninstall_pwa', {manifestId});
    expect(removed.isError, removed.text).toBe(false);
    expect(removed.text).toContain(`Uninstalled PWA with manifest ID: ${manifestId}`);
    expect(removed.text).toContain('## Pages');
    expect(removed.text).not.toContain(installUrl);

    const unknown = await call(fx.client, 'get_os_app_state', {manifestId});
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toContain('Unknown web-app manifest id');
  });

  it('reports a failed install with the browser reason', async () => {
    const failed = await call(fx.client, 'install_pwa', {
      manifestId: fx.server.url('/no-such-app/'),
      installUrlOrBundleUrl: fx.server.url('/no-such-app/index.html'),
    });
    expect(failed.isError).toBe(true);
    expect(failed.text).toMatch(/^Error: .+/m);
  });
});
