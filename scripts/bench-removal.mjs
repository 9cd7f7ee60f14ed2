/** The removal part of `npm run bench` (scripts/operator/bench-removal.ts), also runnable alone. */
import { runOperator } from './lib/operator.mjs';

process.exitCode = await runOperator('scripts/operator/bench-removal.ts', process.argv.slice(2));
