export const APP_NAME = 'MCP Browser Inspector';
export const APP_ID = 'mcp-browser-inspector';
export const DEFAULT_PORT = 7624;
export const TOKEN_ENV = 'MCP_BROWSER_INSPECTOR_TOKEN';
/** What a token looks like (also what a WebSocket sub-protocol may carry). */
export const TOKEN_PATTERN = /^[A-Za-z0-9._~-]{16,512}$/;
/** Sub-protocol that carries the inspector token on the WebSocket upgrade (browsers cannot set headers). */
export const WS_PROTOCOL = 'mcp-browser-inspector.v1';
export const WS_TOKEN_PROTOCOL_PREFIX = 'bearer.';
export const MCP_PATH = '/mcp';
export const INSPECTOR_WS_PATH = '/inspector';
/** Where the token is (tokenLocation.ts): for the inspector page opened without it. */
export const TOKEN_LOCATION_PATH = '/token-location';
