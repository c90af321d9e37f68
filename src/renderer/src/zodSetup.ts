/**
 * zod's global settings for the UI, imported by every module that parses before anything else
 * from zod runs: the CSP forbids eval, so zod must not probe for it (the probe itself logs a CSP
 * violation).
 */
import {z} from 'zod';

z.config({jitless: true});
