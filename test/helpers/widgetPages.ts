/**
 * The widget pages of the export tests (test/fixtures/pages/widgets: disclosure, tabs, combobox,
 * checkboxes and a switch, a menu button, dialogs, same-site and cross-site iframes, an upload, a
 * popup, a responsive layout), served at /widgets/… with `{{CROSS_ORIGIN}}` made the same server
 * under another site (localhost), and optionally with every script removed: the same pages whose
 * widgets do nothing.
 */
import fs from 'node:fs';
import type {IncomingMessage} from 'node:http';
import path from 'node:path';
import type {FixtureServer} from './fixtureServer.js';

const WIDGETS = path.resolve(import.meta.dirname, '../fixtures/pages/widgets');

export interface WidgetVariant {
  /** Serve the pages without their scripts. */
  withoutScripts?: boolean;
}

/** Serves the widget pages; `variant` is asked at each request (which it may choose them by). */
export function serveWidgets(
  server: FixtureServer,
  variant: (request: IncomingMessage) => WidgetVariant,
): void {
  const cross = server.origin.replace('127.0.0.1', 'localhost');
  for (const file of fs.readdirSync(WIDGETS)) {
    server.route(`/widgets/${file}`, (request, response) => {
      let html = fs
        .readFileSync(path.join(WIDGETS, file), 'utf8')
        .replaceAll('{{CROSS_ORIGIN}}', cross);
      if (variant(request).withoutScripts === true) {
        html = html.replace(/<script\b[\s\S]*?<\/script>/gi, '');
      }
      response.writeHead(200, {
        'Content-Type': 'text/html; charset=utf-8',
        'Cache-Control': 'no-store',
      });
      response.end(html);
    });
  }
}
