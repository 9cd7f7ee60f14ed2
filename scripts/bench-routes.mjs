/** The newer routes' rows part of `npm run bench` (scripts/operator/bench-routes.ts), also runnable alone. */
import { runOperator } from './lib/operator.mjs';

process.exitCode = await runOperator('scripts/operator/bench-routes.ts', process.argv.slice(2));
