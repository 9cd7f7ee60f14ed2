/**
 * The code says what is and why, never which tracker issue or point asked for it: when and why a
 * change came belongs in CHANGELOG.md. This reads every source file of src/, functions/, scripts/
 * and tests/ (comments and test titles alike) for an issue number.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.join(import.meta.dirname, '..', '..');
const SOURCE = /\.(ts|tsx|astro|mjs|js|css|sql)$/;
const ISSUE_TAG = /\bissues?\s+#?\d+/gi;

/** Each line of `text` that names an issue, as `file:line: text`. */
function tagsIn(file: string, text: string): string[] {
	return text.split('\n').flatMap((line, index) => (line.match(ISSUE_TAG) ? [`${file}:${index + 1}: ${line.trim()}`] : []));
}

function sourceFiles(folder: string): string[] {
	return readdirSync(path.join(ROOT, folder), { recursive: true, encoding: 'utf8' })
		.filter((file) => SOURCE.test(file))
		.map((file) => path.join(folder, file))
		.filter((file) => file !== path.join('tests', 'unit', 'no-issue-tags.test.ts')); // its own samples
}

describe('issue numbers in the code', () => {
	it('are found in a comment and a test title', () => {
		const sample = ['// Bounded (issue 22, point 5).', "it('keeps the text (Issue 7)', () => {});", '// An issue of timing, not 22 of them.'].join(
			'\n',
		);
		expect(tagsIn('sample.ts', sample)).toEqual([
			'sample.ts:1: // Bounded (issue 22, point 5).',
			"sample.ts:2: it('keeps the text (Issue 7)', () => {});",
		]);
	});

	it('are named nowhere in src/, functions/, scripts/ or tests/', () => {
		const tags = ['src', 'functions', 'scripts', 'tests']
			.flatMap(sourceFiles)
			.flatMap((file) => tagsIn(file, readFileSync(path.join(ROOT, file), 'utf8')));
		expect(tags).toEqual([]);
	});
});
