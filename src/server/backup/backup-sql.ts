/**
 * The SQL of a backup's data (docs/guides/backups.md): one INSERT a line, each value a literal, so that a
 * piece is plain SQL that `sqlite3` or `wrangler d1 execute --file` can read, and a line can be split from
 * the next without parsing. Text with a character below U+0020 (a line break) is written as
 * `CAST(X'…' AS TEXT)`, its UTF-8 in hex; a BLOB as `X'…'`.
 *
 * A restore joins a piece's lines into INSERTs of many rows each, every statement under D1's 100,000 bytes
 * (`insertStatements`); a line longer than that (a post of 40,000 Korean characters is 120,000 bytes of
 * literal) is read back into values (`parseInsert`) and bound as parameters.
 */
import { createHash } from 'node:crypto';

export type SqlValue = string | number | null | Uint8Array;

/** A parsed line: the statement with parameters, and the values to bind. */
interface ParsedInsert {
	table: string;
	sql: string;
	values: SqlValue[];
}

/** A name as an SQL identifier. */
export const quoteName = (name: string): string => `"${name.replace(/"/g, '""')}"`;

const hex = (bytes: Uint8Array): string => Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');

/** A value as D1 answers it (a BLOB as an array of bytes or an ArrayBuffer), written as an SQL literal. */
function sqlLiteral(value: unknown): string {
	if (value === null || value === undefined) return 'NULL';
	if (typeof value === 'number') {
		if (!Number.isFinite(value)) throw new RangeError(`A value that is not a finite number: ${value}`);
		return String(value);
	}
	if (typeof value === 'bigint') return value.toString();
	if (typeof value === 'string') {
		// eslint-disable-next-line no-control-regex -- the characters a line of SQL must not hold.
		return /[\u0000-\u001f]/.test(value) ? `CAST(X'${hex(new TextEncoder().encode(value))}' AS TEXT)` : `'${value.replace(/'/g, "''")}'`;
	}
	if (value instanceof ArrayBuffer) return `X'${hex(new Uint8Array(value))}'`;
	if (ArrayBuffer.isView(value)) return `X'${hex(new Uint8Array(value.buffer, value.byteOffset, value.byteLength))}'`;
	if (Array.isArray(value)) return `X'${hex(Uint8Array.from(value as number[]))}'`;
	throw new TypeError(`A value of type ${typeof value} has no SQL literal`);
}

/** One row as its line of SQL (without the line break). */
export function insertLine(table: string, columns: readonly string[], row: Record<string, unknown>): string {
	return `INSERT INTO ${quoteName(table)} (${columns.map(quoteName).join(',')}) VALUES (${columns.map((column) => sqlLiteral(row[column])).join(',')});`;
}

const fromHex = (digits: string): Uint8Array => Uint8Array.from(digits.match(/../g) ?? [], (pair) => parseInt(pair, 16));

const LINE = /^INSERT INTO ("(?:[^"]|"")+") \(((?:"(?:[^"]|"")+",?)+)\) VALUES \((.*)\);$/s;
const VALUE = /NULL|-?\d+(?:\.\d+)?(?:e[+-]?\d+)?|'((?:[^']|'')*)'|CAST\(X'([0-9a-f]*)' AS TEXT\)|X'([0-9a-f]*)'/iy;

/** A statement of a restore is at most this long: D1 refuses one over 100,000 bytes. */
const STATEMENT_BYTES = 90_000;

/**
 * A piece's lines as few statements: consecutive lines of one table and column list as one INSERT of
 * their rows while it stays under STATEMENT_BYTES, a longer line alone with its values bound. A line
 * that is not one `insertLine` writes is refused.
 */
export function insertStatements(lines: readonly string[]): { sql: string; values: SqlValue[] }[] {
	const statements: { sql: string; values: SqlValue[] }[] = [];
	let head = '';
	let rows: string[] = [];
	let bytes = 0;
	const flush = () => {
		if (rows.length > 0) statements.push({ sql: `${head} VALUES ${rows.join(',')}`, values: [] });
		rows = [];
		bytes = 0;
	};
	const encoder = new TextEncoder();
	for (const line of lines) {
		const match = LINE.exec(line);
		if (!match) throw new Error(`Not a line of a backup: ${line.slice(0, 120)}`);
		const size = encoder.encode(line).byteLength;
		if (size > STATEMENT_BYTES) {
			flush();
			statements.push(parseInsert(line));
			continue;
		}
		const lineHead = `INSERT INTO ${match[1]} (${match[2]})`;
		if (lineHead !== head || bytes + size > STATEMENT_BYTES) flush();
		head = lineHead;
		rows.push(`(${match[3]})`);
		bytes += size;
	}
	flush();
	return statements;
}

/** A line `insertLine` wrote, as a statement with parameters; anything else is refused. */
function parseInsert(line: string): ParsedInsert {
	const match = LINE.exec(line);
	if (!match) throw new Error(`Not a line of a backup: ${line.slice(0, 120)}`);
	const [, table, columns, list] = match as unknown as [string, string, string, string];
	const values: SqlValue[] = [];
	for (let at = 0; at < list.length; ) {
		VALUE.lastIndex = at;
		const value = VALUE.exec(list);
		if (!value) throw new Error(`Not a value of a backup at ${at}: ${line.slice(0, 120)}`);
		const [token, text, textHex, blobHex] = value;
		if (text !== undefined) values.push(text.replace(/''/g, "'"));
		else if (textHex !== undefined) values.push(new TextDecoder().decode(fromHex(textHex)));
		else if (blobHex !== undefined) values.push(fromHex(blobHex));
		else values.push(token.toUpperCase() === 'NULL' ? null : Number(token));
		at = VALUE.lastIndex;
		if (at < list.length && list[at++] !== ',') throw new Error(`Not a list of values: ${line.slice(0, 120)}`);
	}
	const names = columns.split(/,(?=")/);
	if (names.length !== values.length) throw new Error(`${names.length} columns and ${values.length} values: ${line.slice(0, 120)}`);
	return {
		table: table.slice(1, -1).replace(/""/g, '"'),
		sql: `INSERT INTO ${table} (${columns}) VALUES (${values.map((_, index) => `?${index + 1}`).join(',')})`,
		values,
	};
}

/** The SHA-256 of `text`, in hex. */
export const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

const SUM_MODULUS = 2n ** 64n;

/**
 * A table's checksum, added to row by row: the sum modulo 2^64 of the first 64 bits of each line's
 * SHA-256. A sum does not depend on where the pieces were cut, nor on the implicit rowids a restore
 * gives, so the restored table is summed again and compared.
 */
export function addRowToSum(sum: string, line: string): string {
	const head = createHash('sha256').update(line).digest().readBigUInt64BE(0);
	return ((BigInt(`0x${sum}`) + head) % SUM_MODULUS).toString(16).padStart(16, '0');
}

export const EMPTY_SUM = '0'.repeat(16);
