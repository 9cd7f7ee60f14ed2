/**
 * `npm run codes`: prints the result-code table of docs/reference/api.md from src/lib/result-codes.ts;
 * `npm run codes -- --write` puts it into docs/reference/api.md between its markers.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './lib/wrangler.mjs';
import { resultCodeTable, withResultCodeTable } from './lib/codes-table.mjs';

if (process.argv.includes('--write')) {
	const file = path.join(ROOT, 'docs', 'reference', 'api.md');
	writeFileSync(file, withResultCodeTable(readFileSync(file, 'utf8')));
	console.log('docs/reference/api.md: result-code table updated.');
} else {
	console.log(resultCodeTable());
}
