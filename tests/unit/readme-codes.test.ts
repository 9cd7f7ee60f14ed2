import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { withResultCodeTable } from '../../scripts/lib/codes-table.mjs';

describe('the README', () => {
	it('lists exactly the result codes of src/lib/result-codes.ts', () => {
		const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
		expect(readme).toBe(withResultCodeTable(readme));
	});
});
