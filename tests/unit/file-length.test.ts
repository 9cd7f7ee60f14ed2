/**
 * No source file in src/ or functions/ is longer than 450 lines (docs/reference/architecture.md#folders): a
 * file that long holds more than one thing, and is split along what it does (a pure reducer, a hook
 * per concern, one module per stage), not into arbitrary halves.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const MAX_LINES = 450;
const ROOTS = ['src', 'functions'];
const SOURCE = /\.(?:ts|tsx|astro|mjs|css)$/;

const sourceFiles = (): string[] =>
	ROOTS.flatMap((root) =>
		readdirSync(root, { recursive: true, withFileTypes: true })
			.filter((entry) => entry.isFile() && SOURCE.test(entry.name))
			.map((entry) => path.relative(process.cwd(), path.join(entry.parentPath, entry.name)).split(path.sep).join('/')),
	);

const lineCount = (file: string): number => readFileSync(file, 'utf8').replace(/\n$/, '').split('\n').length;

describe('file length', () => {
	const files = sourceFiles();

	it('finds the source files', () => {
		expect(files.length).toBeGreaterThan(100);
		expect(files).toContain('src/islands/write/WriteForm.tsx');
		expect(files).toContain('src/styles/global.css');
	});

	it(`no file in ${ROOTS.join('/ or ')}/ is over ${MAX_LINES} lines`, () => {
		const long = files.filter((file) => lineCount(file) > MAX_LINES).map((file) => `${file}: ${lineCount(file)}`);
		expect(long).toEqual([]);
	});
});
