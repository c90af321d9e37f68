// What the bundles give puppeteer-core for `import('debug')`. puppeteer calls `debug(prefix)` on
// every CDP message it sends or receives, and each call builds a new logger that asks whether
// stderr is a terminal (a system call): about a fifth of the server's CPU with 50 agents. Loggers
// are made once per name here; DEBUG=puppeteer:* works as before.
import createDebug from 'debug';

/** @type {Map<string, import('debug').Debugger>} */
const made = new Map();

/** @param {string} namespace */
export default function debugOnce(namespace) {
  let logger = made.get(namespace);
  if (logger === undefined) {
    logger = createDebug(namespace);
    made.set(namespace, logger);
  }
  return logger;
}
