/** `npm run backup`: a backup of one D1 database to a folder; see scripts/operator/backup.ts. */
import { runOperator } from './lib/operator.mjs';

process.exitCode = await runOperator('scripts/operator/backup.ts', ['backup', ...process.argv.slice(2)]);
