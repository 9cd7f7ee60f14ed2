/** `npm run member`: the operator command for bans; see scripts/operator/member.ts. */
import { runOperator } from './lib/operator.mjs';

process.exitCode = await runOperator('scripts/operator/member.ts', process.argv.slice(2));
