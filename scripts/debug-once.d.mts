// Types for the tests that import debug-once.mjs.
import type {Debugger} from 'debug';

/** The `debug` logger of this name, made once. */
export default function debugOnce(namespace: string): Debugger;
