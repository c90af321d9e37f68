/**
 * Shown when there is no token or the server refused it: retrying cannot help, the user needs the
 * URL the server printed. Says exactly where to find it.
 */
import {APP_NAME} from '../../../shared/constants.js';

export function UnauthorizedScreen(props: {message: string}): React.JSX.Element {
  return (
    <main className="unauthorized" aria-labelledby="unauthorized-title">
      <h1 id="unauthorized-title">{APP_NAME} needs its token</h1>
      <p>{props.message}</p>
      <h2>How to get the right URL</h2>
      <ol>
        <li>
          Look at the terminal where the server runs (<code>npm run serve</code>). At startup it
          prints a line like <code>inspector http://127.0.0.1:7624/#token=&lt;token&gt;</code> and
          says where the token is kept.
        </li>
        <li>
          The token is the value given with <code>--token</code> or{' '}
          <code>MCP_BROWSER_INSPECTOR_TOKEN</code>, or else the one kept in the file{' '}
          <code>token</code> of the user config folder:{' '}
          <code>~/.config/mcp-browser-inspector/token</code> on Linux,{' '}
          <code>~/Library/Application Support/mcp-browser-inspector/token</code> on macOS,{' '}
          <code>%APPDATA%\mcp-browser-inspector\token</code> on Windows.
        </li>
        <li>
          Open this page again as <code>{window.location.origin}/#token=&lt;token&gt;</code>. With{' '}
          <code>--readyFile PATH</code> the server also writes the full <code>inspectorUrl</code>{' '}
          and <code>token</code> to that file.
        </li>
      </ol>
    </main>
  );
}
