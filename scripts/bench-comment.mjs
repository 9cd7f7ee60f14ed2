/** The comment part of `npm run bench` (scripts/operator/bench-comment.ts), also runnable alone. */
import { runOperator } from './lib/operator.mjs';

process.exitCode = await runOperator('scripts/operator/bench-comment.ts', process.argv.slice(2));
