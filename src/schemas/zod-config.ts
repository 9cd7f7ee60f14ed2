/**
 * zod's set-up, imported by every schema module before it builds a schema. zod compiles object
 * parsers with `new Function` where it may; the pages' Content-Security-Policy forbids eval, and
 * even zod's probe for it is reported as a violation in the browser, so it never tries. (On the
 * Worker, where eval is not allowed either, zod does not try anyway.)
 */
import { config } from 'zod/v4/core';

config({ jitless: true });
