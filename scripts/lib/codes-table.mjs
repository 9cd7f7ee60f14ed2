/** The result-code table of docs/reference/api.md, made from the catalogue in src/lib/result-codes.ts. */
import * as codes from '../../src/lib/result-codes.ts';

const TABLE_START = '<!-- result-codes:start (npm run codes -- --write) -->';
const TABLE_END = '<!-- result-codes:end -->';

/** Every code export with its message, by name; throws when one of the two lacks the other. */
export function resultCodes() {
	const defs = /** @type {[string, { code: number; status: number }][]} */ (
		Object.entries(codes).filter(([, def]) => typeof def === 'object' && def !== null && 'code' in def)
	);
	const names = defs.map(([name]) => name).sort();
	const messageNames = Object.keys(codes.RESULT_MESSAGES).sort();
	if (JSON.stringify(names) !== JSON.stringify(messageNames)) throw new Error(`Result codes and messages differ: ${names} / ${messageNames}`);
	return defs.map(([name, def]) => ({ name, ...def, message: codes.RESULT_MESSAGES[name] }));
}

/** The table in Markdown, ordered by HTTP status and then by code. */
export function resultCodeTable() {
	const rows = resultCodes().sort((a, b) => a.status - b.status || b.code - a.code);
	const escape = (text) => text.replace(/\|/g, '\\|');
	return [
		'| Code | HTTP | Name | Message |',
		'|---|---|---|---|',
		...rows.map((def) => `| ${def.code} | ${def.status} | ${def.name} | ${escape(def.message)} |`),
	].join('\n');
}

/** `doc` with the text between the markers replaced by the current table. */
export function withResultCodeTable(doc) {
	const start = doc.indexOf(TABLE_START);
	const end = doc.indexOf(TABLE_END);
	if (start < 0 || end < start) throw new Error('docs/reference/api.md has no result-code table markers');
	return `${doc.slice(0, start + TABLE_START.length)}\n${resultCodeTable()}\n${doc.slice(end)}`;
}
