/** `npm run search`: the search index's operator command; see scripts/operator/search.ts. */
import { runOperator } from './lib/operator.mjs';

process.exitCode = await runOperator('scripts/operator/search.ts', process.argv.slice(2));
