import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { withResultCodeTable } from '../../scripts/lib/codes-table.mjs';

describe('docs/reference/api.md', () => {
	it('lists exactly the result codes of src/lib/result-codes.ts', () => {
		const doc = readFileSync(new URL('../../docs/reference/api.md', import.meta.url), 'utf8');
		expect(doc).toBe(withResultCodeTable(doc));
	});
});

describe('the result-code catalogue', () => {
	it('gives every code a message, and every message a code, each code used once', async () => {
		const { resultCodes } = await import('../../scripts/lib/codes-table.mjs');
		const all = resultCodes() as { code: number; status: number }[];
		expect(new Set(all.map((def) => def.code)).size).toBe(all.length);
		for (const def of all) expect(String(-def.code).startsWith(String(def.status))).toBe(true);
	});
});
