/** `npm run restore`: a backup folder into an empty D1 database; see scripts/operator/backup.ts. */
import { runOperator } from './lib/operator.mjs';

process.exitCode = await runOperator('scripts/operator/backup.ts', ['restore', ...process.argv.slice(2)]);
