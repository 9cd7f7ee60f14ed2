/**
 * src/lib is what server and browser share (docs/reference/architecture.md#folders): every module in it is
 * reached from browser code, following imports from the islands, the stores, the page scripts and
 * the `<script>` blocks of Astro components. A module only the Worker uses belongs under src/server
 * (ESLint's wall keeps src/lib from importing the server, so the browser can load all of it).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.join(import.meta.dirname, '..', '..');
const SRC = path.join(ROOT, 'src');
const BROWSER_FOLDERS = ['islands', 'stores', 'page-scripts'];

const filesUnder = (folder: string): string[] =>
	readdirSync(path.join(SRC, folder), { recursive: true, encoding: 'utf8' }).map((file) => path.join(SRC, folder, file));

/** The browser's code in a file: all of a module, or the `<script>` blocks of an Astro component. */
function browserCode(file: string): string {
	const text = readFileSync(file, 'utf8');
	if (!file.endsWith('.astro')) return text;
	return [...text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((match) => match[1] ?? '').join('\n');
}

/** The src file an import names, or null for a package (or a file outside src). */
function resolve(from: string, specifier: string): string | null {
	const base = specifier.startsWith('@/')
		? path.join(SRC, specifier.slice(2))
		: specifier.startsWith('.')
			? path.resolve(path.dirname(from), specifier)
			: null;
	if (!base) return null;
	const candidates = [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')];
	return candidates.find((candidate) => existsSync(candidate) && !candidate.endsWith(path.sep) && /\.(tsx?|astro)$/.test(candidate)) ?? null;
}

/** Every src file the browser code reaches, following static, dynamic and type imports alike. */
function reachedFromBrowser(): Set<string> {
	const roots = [
		...BROWSER_FOLDERS.flatMap(filesUnder).filter((file) => /\.tsx?$/.test(file)),
		...filesUnder('.').filter((file) => file.endsWith('.astro')),
	];
	const reached = new Set<string>();
	const queue = [...roots];
	for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
		if (reached.has(file)) continue;
		reached.add(file);
		const code = browserCode(file);
		for (const match of code.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"]+)['"]/g)) {
			const target = resolve(file, match[1] ?? '');
			if (target && !reached.has(target)) queue.push(target);
		}
	}
	return reached;
}

describe('src/lib', () => {
	it('holds only modules that browser code imports (server-only modules live under src/server)', () => {
		const lib = filesUnder('lib').filter((file) => /\.tsx?$/.test(file));
		expect(lib.length).toBeGreaterThan(10);
		const reached = reachedFromBrowser();
		expect(lib.filter((file) => !reached.has(file)).map((file) => path.relative(ROOT, file))).toEqual([]);
	});
});
