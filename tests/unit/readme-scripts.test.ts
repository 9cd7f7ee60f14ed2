/**
 * Every command the README and docs/ tell a person to run exists: each `npm run X` (and `npm X`
 * of npm's own script names) is a script of package.json, and each `node scripts/…` a file. CI
 * (scripts/test.mjs) runs a smoke of the scripts themselves; this keeps the documents in step.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.join(import.meta.dirname, '..', '..');
const scripts = Object.keys((JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts);
const documents = [
	'README.md',
	...readdirSync(path.join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' })
		.filter((file) => file.endsWith('.md'))
		.map((file) => path.join('docs', file)),
];

/** What each document names: npm scripts and node scripts. */
function named(pattern: RegExp): { document: string; name: string }[] {
	return documents.flatMap((document) =>
		[...readFileSync(path.join(ROOT, document), 'utf8').matchAll(pattern)].map((match) => ({ document, name: match[1] ?? '' })),
	);
}

describe('the commands the documents name', () => {
	it('are scripts of package.json (npm run X)', () => {
		const runs = named(/\bnpm run ([\w:.-]+)/g);
		expect(runs.length).toBeGreaterThan(0);
		expect(runs.filter(({ name }) => !scripts.includes(name))).toEqual([]);
	});

	it('are files of scripts/ (node scripts/…)', () => {
		const files = named(/\bnode (scripts\/[\w./-]+\.mjs)/g);
		expect(files.filter(({ name }) => !existsSync(path.join(ROOT, name)))).toEqual([]);
	});

	it('include npm start and npm test, which package.json defines', () => {
		expect(scripts).toEqual(expect.arrayContaining(['start', 'test']));
	});
});
