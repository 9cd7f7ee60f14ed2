/** The search part of `npm run bench` (scripts/operator/bench-search.ts), also runnable alone. */
import { runOperator } from './lib/operator.mjs';

process.exitCode = await runOperator('scripts/operator/bench-search.ts', process.argv.slice(2));
