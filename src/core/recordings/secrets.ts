/**
 * Keeps secrets out of the inspector's events and recordings: the bearer token, header values
 * given on the command line (--wsHeaders), the credentials and query values of the endpoint and
 * proxy flags, any Authorization value and the user info of every URL (plain, ws/wss, or
 * percent-encoded inside another), the OAuth tokens and API keys URLs carry (`#access_token=`),
 * wherever they appear (arguments, results, console text, URLs, errors). The hub applies it to every string of every event; the recorder once more to each
 * serialized line, and the header's flags are stripped of the same secrets before they are written.
 */
import {
  REDACTED,
  scrubUrlCredentials,
  urlSecrets,
  withoutUrlSecrets,
} from '../../shared/urlSecrets.js';
import type {ServerConfig} from '../config/serverConfig.js';

export {REDACTED};
/** Shorter values are not treated as secrets (they would blank out common words). */
const MIN_SECRET_LENGTH = 6;
/** Parameter names telemetry drops as ids; never copied into the header's flags. */
const ID_KEYS = new Set(['uid', 'reqid', 'msgid']);

/**
 * An Authorization (or Proxy-Authorization) name followed by its value, as JSON key, as text in a
 * string (`authorization: Bearer …`), or escaped inside a nested JSON string. The value ends at a
 * quote or an escape (`\n`, `\"`).
 */
const AUTHORIZATION_VALUE = /((?:proxy-)?authorization)(\\*"?\s*[:=]\s*\\*"?)([^"\\]+)/gi;
const BEARER_VALUE = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{6,}/g;
/**
 * The credentials OAuth and API keys put in URLs (a query or a fragment: `#access_token=…` after
 * a sign-in), as `name=value` up to the next `&`, `#`, quote, escape or space.
 */
const URL_CREDENTIAL =
  /\b(access_token|id_token|refresh_token|client_secret|api_key)=([^&#\s"'\\]+)/gi;

export class SecretScrubber {
  readonly #secrets: string[];

  constructor(secrets: readonly string[]) {
    const forms = new Set<string>();
    for (const secret of secrets) {
      if (secret.length < MIN_SECRET_LENGTH) {
        continue;
      }
      forms.add(secret);
      // As it appears inside a JSON string, and inside a JSON string nested in one.
      const escaped = JSON.stringify(secret).slice(1, -1);
      forms.add(escaped);
      forms.add(JSON.stringify(escaped).slice(1, -1));
      forms.add(encodeURIComponent(secret));
    }
    // Longest first, so a secret that contains another is removed whole.
    this.#secrets = [...forms].sort((a, b) => b.length - a.length);
  }

  /** The line with every secret replaced by [redacted]. */
  scrub(line: string): string {
    let out = line;
    for (const secret of this.#secrets) {
      if (out.includes(secret)) {
        out = out.split(secret).join(REDACTED);
      }
    }
    if (/authorization/i.test(out)) {
      out = out.replace(AUTHORIZATION_VALUE, `$1$2${REDACTED}`);
    }
    if (out.includes('Bearer') || out.includes('Basic')) {
      out = out.replace(BEARER_VALUE, `$1 ${REDACTED}`);
    }
    if (/(?:_token|client_secret|api_key)=/i.test(out)) {
      out = out.replace(URL_CREDENTIAL, `$1=${REDACTED}`);
    }
    if (out.includes('@') || out.includes('%40')) {
      out = scrubUrlCredentials(out);
    }
    return out;
  }
}

/**
 * The secrets this server knows of: its token, the header values it was given, and what the
 * endpoint and proxy flags carry (credentials, query values: hosted browsers put tokens there).
 */
export function configSecrets(config: ServerConfig, token: string): string[] {
  const {wsHeaders, browserUrl, wsEndpoint, proxyServer} = config.browser;
  return [
    token,
    ...(config.token === undefined ? [] : [config.token]),
    ...Object.values(wsHeaders ?? {}),
    ...[browserUrl, wsEndpoint, proxyServer].flatMap(flag =>
      flag === undefined ? [] : urlSecrets(flag),
    ),
  ];
}

/** The flags as the recording header records them: no token, no header values, no ids. */
export function headerFlags(config: ServerConfig): Record<string, unknown> {
  const {token: _token, browser, ...rest} = config;
  const {wsHeaders, browserUrl, wsEndpoint, proxyServer, ...browserRest} = browser;
  const flags: Record<string, unknown> = Object.fromEntries(
    Object.entries(rest).filter(([key]) => !ID_KEYS.has(key)),
  );
  flags.browser = {
    ...browserRest,
    ...(wsHeaders === undefined
      ? {}
      : {wsHeaders: Object.fromEntries(Object.keys(wsHeaders).map(name => [name, REDACTED]))}),
    ...(browserUrl === undefined ? {} : {browserUrl: withoutUrlSecrets(browserUrl)}),
    ...(wsEndpoint === undefined ? {} : {wsEndpoint: withoutUrlSecrets(wsEndpoint)}),
    ...(proxyServer === undefined ? {} : {proxyServer: withoutUrlSecrets(proxyServer)}),
  };
  return flags;
}

/** What the hub applies to every string of every event: no secret reaches a UI or the recording. */
export function secretRedactor(config: ServerConfig, token: string): (text: string) => string {
  const scrubber = new SecretScrubber(configSecrets(config, token));
  return text => scrubber.scrub(text);
}
