/** `npm run channel`: operator commands for a community; see scripts/operator/channel.ts. */
import { runOperator } from './lib/operator.mjs';

process.exitCode = await runOperator('scripts/operator/channel.ts', process.argv.slice(2));
