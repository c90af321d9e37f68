/**
 * Shown when there is no token or the server refused it: retrying cannot help. Says where this
 * server keeps its token (asked of the server, which names the place, never the token) and takes
 * the token pasted into a field; or the URL the server printed.
 */
import {useEffect, useState} from 'react';
import {APP_NAME, TOKEN_LOCATION_PATH} from '../../../shared/constants.js';
import type {TokenLocation} from '../../../shared/tokenLocation.js';
import {isWellFormedToken, keepToken} from '../connection/token.js';

export function UnauthorizedScreen(props: {message: string}): React.JSX.Element {
  const location = useTokenLocation();
  return (
    <main className="unauthorized" aria-labelledby="unauthorized-title">
      <h1 id="unauthorized-title">{APP_NAME} needs its token</h1>
      <p>{props.message}</p>
      <p data-testid="token-location">
        <TokenPlace location={location} />
      </p>
      <TokenForm />
      <h2>Or open the URL the server printed</h2>
      <p>
        At startup the server prints a line like{' '}
        <code>inspector http://127.0.0.1:7624/#token=&lt;token&gt;</code> to its terminal; open this
        page as <code>{window.location.origin}/#token=&lt;token&gt;</code>. With{' '}
        <code>--readyFile PATH</code> it also writes the full <code>inspectorUrl</code> and{' '}
        <code>token</code> to that file.
      </p>
    </main>
  );
}

function TokenPlace(props: {location: TokenLocation | undefined}): React.JSX.Element {
  const {location} = props;
  if (location?.source === 'file') {
    return (
      <>
        This server keeps its token in the file{' '}
        <code className="unauthorized__path">{location.file}</code> (one line; readable by you
        only).
      </>
    );
  }
  if (location?.source === 'flag-or-env') {
    return (
      <>
        This server was started with its token given: the value of <code>--token</code> or of{' '}
        <code>{location.env}</code> where it was started.
      </>
    );
  }
  return (
    <>
      The token is the value given with <code>--token</code> or{' '}
      <code>MCP_BROWSER_INSPECTOR_TOKEN</code>, or else the one in the file <code>token</code> of
      the user config folder (<code>~/.config/mcp-browser-inspector/token</code> on Linux); the
      server&apos;s startup line names it.
    </>
  );
}

/** Where the server keeps its token, once it said (undefined until then, or if it cannot). */
function useTokenLocation(): TokenLocation | undefined {
  const [location, setLocation] = useState<TokenLocation | undefined>();
  useEffect(() => {
    const gone = new AbortController();
    void (async () => {
      try {
        const response = await fetch(TOKEN_LOCATION_PATH, {cache: 'no-store', signal: gone.signal});
        const body: unknown = await response.json();
        // The schema (zod) loads here only: the first paint does not need it.
        const {tokenLocationSchema} = await import('../../../shared/tokenLocation.js');
        const parsed = tokenLocationSchema.safeParse(body);
        if (!gone.signal.aborted && parsed.success) {
          setLocation(parsed.data);
        }
      } catch {
        // The generic help stays.
      }
    })();
    return () => gone.abort();
  }, []);
  return location;
}

function TokenForm(): React.JSX.Element {
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | undefined>();
  return (
    <form
      className="unauthorized__form"
      onSubmit={event => {
        event.preventDefault();
        const token = text.trim();
        if (!isWellFormedToken(token)) {
          setProblem(
            'That is not a token: it is 16 or more characters from A-Z a-z 0-9 . _ ~ - (the whole line of the token file).',
          );
          return;
        }
        if (!keepToken(window.sessionStorage, token)) {
          setProblem('This browser does not let the page keep the token; open the URL instead.');
          return;
        }
        window.location.reload();
      }}
    >
      <label>
        <span>Token</span>
        <input
          className="mono"
          value={text}
          autoComplete="off"
          spellCheck={false}
          aria-describedby={problem === undefined ? undefined : 'token-problem'}
          onChange={event => setText(event.target.value)}
        />
      </label>
      <button type="submit" className="primary">
        Connect
      </button>
      {problem === undefined ? null : (
        <p id="token-problem" className="notice notice--error" role="alert">
          {problem}
        </p>
      )}
    </form>
  );
}
