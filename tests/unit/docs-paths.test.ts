/**
 * Every file a document names exists, and every link between documents lands on a page and heading
 * that exist (docs/README.md, the index, says what each page holds). The README and docs/ are
 * read as a newcomer reads them: a relative link, a `path/like.ts` in backticks and a bare
 * src/…, functions/…, scripts/… or tests/… path in the text are each a promise that the file is
 * there. Code comments point into docs/ too (`docs/reference/product-rules.md#api-calls`), in the
 * source folders and the configuration files at the root: each must name a page and heading that
 * exist, or a page that docs-moves.tsv (a pending `old<TAB>new` list of moved pages, applied to the
 * code by hand, then deleted) maps to one that exists. The tree listings of the README,
 * architecture.md and api.md name every folder and router there is.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.join(import.meta.dirname, '..', '..');
/** Top-level folders that are not the project's own: git's, and what .gitignore names (dependencies, builds, local state). */
const SKIPPED = new Set([
	'.git',
	...readFileSync(path.join(ROOT, '.gitignore'), 'utf8')
		.split('\n')
		.filter((line) => line.trim() && !line.includes('*'))
		.map((line) => line.trim().replace(/^\/|\/$/g, '')),
]);
/** The folders a path in the text starts from. */
const TOP = ['src', 'functions', 'scripts', 'tests', 'migrations', 'channels', 'public', 'docs', '.ci'];

/** Every file and folder of the repository (relative, with `/`), folders ending in `/`. */
function walk(folder = ''): string[] {
	return readdirSync(path.join(ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
		if (entry.name === 'node_modules' || (!folder && SKIPPED.has(entry.name))) return [];
		const relative = folder ? `${folder}/${entry.name}` : entry.name;
		return entry.isDirectory() ? [`${relative}/`, ...walk(relative)] : [relative];
	});
}

/** GitHub's anchor of a heading: lower case, punctuation out, spaces to dashes. */
function slug(heading: string): string {
	return heading
		.trim()
		.toLowerCase()
		.replace(/`/g, '')
		.replace(/[^\p{L}\p{N}\s_-]/gu, '')
		.replace(/\s/g, '-');
}

/** The anchors of a Markdown page: one per heading, a repeated one with -1, -2… */
function anchorsOf(text: string): Set<string> {
	const seen = new Map<string, number>();
	const anchors = new Set<string>();
	for (const [, heading] of outsideCode(text).matchAll(/^#{1,6}\s+(.+)$/gm)) {
		const base = slug(heading ?? '');
		const count = seen.get(base) ?? 0;
		seen.set(base, count + 1);
		anchors.add(count ? `${base}-${count}` : base);
	}
	return anchors;
}

/**
 * The text without its fenced code blocks (diagrams and sample output name no files). A fence's
 * indent is spaces and tabs only: an indent that took the blank line before it would need a blank
 * line before the closing fence too, and run on to the next block's opening fence.
 */
function outsideCode(text: string): string {
	return text.replace(/^([ \t]*)```[\s\S]*?^\1```/gm, '').replace(/^ {4}\S.*$/gm, '');
}

interface Problem {
	document: string;
	named: string;
	problem: string;
}

/** What is wrong with the paths and links one document names; `files` lists the repository. */
function problemsOf(document: string, text: string, files: Set<string>, read: (file: string) => string): Problem[] {
	const problems: Problem[] = [];
	const folder = path.posix.dirname(document);
	const prose = outsideCode(text);
	const exists = (file: string) => files.has(file) || files.has(`${file.replace(/\/$/, '')}/`);

	// Relative links: [text](target) and [text](target#anchor).
	for (const [, target] of prose.matchAll(/\]\(([^)\s]+)\)/g)) {
		if (!target || /^[a-z]+:/i.test(target)) continue;
		const [file = '', anchor] = target.split('#');
		const resolved = file ? path.posix.normalize(path.posix.join(folder, file)) : document;
		if (!exists(resolved)) {
			problems.push({ document, named: target, problem: 'no such file' });
			continue;
		}
		if (anchor && resolved.endsWith('.md') && !anchorsOf(read(resolved)).has(anchor.toLowerCase()))
			problems.push({ document, named: target, problem: 'no such heading' });
	}

	// Paths in backticks (`src/lib/urls.ts`, `posts/views.ts`, `harness.ts`) and bare ones in the text.
	const mentions = new Set<string>();
	for (const [, code] of prose.matchAll(/`([^`\n]+)`/g)) if (code) mentions.add(code);
	for (const [, bare] of prose.matchAll(
		new RegExp(`(?<![\\w/.@-])((?:${TOP.map((top) => top.replace('.', '\\.')).join('|')})/[\\w./[\\]-]*[\\w/\\]])(?![\\w*{}[-]|\\.\\w)`, 'g'),
	))
		if (bare) mentions.add(bare.split(']').length > bare.split('[').length ? bare.slice(0, -1) : bare);
	for (const mention of mentions) {
		const named = mention.replace(/[.,:;]+$/, '').replace(/:\d+(-\d+)?$/, '');
		if (!/^[\w.@[\]-]+(\/[\w.@[\]-]+)*\/?$/.test(named)) continue; // not a path: code, a URL, a {placeholder}
		if (named.startsWith('../') || /(^|[/_.-])(FILE|NAME|NNNN|NN|DIR)([/_.-]|$)/.test(named)) continue; // outside the repository, or a placeholder
		const first = named.split('/')[0] ?? '';
		const rooted = TOP.includes(first) || (!named.includes('/') && files.has(named));
		if (rooted) {
			if (!exists(named)) problems.push({ document, named, problem: 'no such file' });
		} else if (/\.(ts|tsx|astro|mjs|sql|css)$/.test(named)) {
			// A path relative to where the text is (`posts/views.ts` under src/server/): some file must end so.
			const tail = `/${named}`;
			if (![...files].some((file) => `/${file}`.endsWith(tail))) problems.push({ document, named, problem: 'no file ends so' });
		}
	}
	return problems;
}

/** The pending page moves of docs-moves.tsv (old → new), empty once the lead has applied them. */
function pendingMoves(): Map<string, string> {
	const file = path.join(ROOT, 'docs-moves.tsv');
	if (!existsSync(file)) return new Map();
	return new Map(
		readFileSync(file, 'utf8')
			.split('\n')
			.filter((line) => line.includes('\t'))
			.map((line) => line.split('\t') as [string, string]),
	);
}

const files = new Set(walk());
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
const documents = [...files].filter((file) => file === 'README.md' || (file.startsWith('docs/') && file.endsWith('.md')));

describe('the paths the documents name', () => {
	it('are read from the README and every page of docs/', () => {
		expect(documents).toContain('docs/README.md');
		expect(documents.length).toBeGreaterThan(20);
	});

	it('exist: relative links, their headings, and file paths in the text', () => {
		expect(documents.flatMap((document) => problemsOf(document, read(document), files, read))).toEqual([]);
	});

	it('are each linked from the index, docs/README.md', () => {
		const index = read('docs/README.md');
		const linked = new Set([...outsideCode(index).matchAll(/\]\(([^)#\s]+)/g)].map(([, target]) => path.posix.join('docs', target ?? '')));
		expect(documents.filter((document) => document.startsWith('docs/') && document !== 'docs/README.md' && !linked.has(document))).toEqual([]);
	});

	it('have titles that say what a page describes, not which tracker issue or point it answered', () => {
		const titled = documents.flatMap((document) =>
			[...outsideCode(read(document)).matchAll(/^#{1,6}\s+(.+)$/gm)].map(([, heading]) => `${document}: ${heading}`),
		);
		expect(titled.filter((heading) => /\b(issues?|points?)\s+\d/i.test(heading))).toEqual([]);
	});

	it('finds a wrong path, a wrong link and a missing heading', () => {
		const sample = [
			'# A page',
			'See [the API](api.md) and [its codes](api.md#nowhere), [a gone page](gone.md),',
			'`src/server/nowhere.ts`, `posts/nowhere.ts`, scripts/nowhere.mjs, and the real `src/fetch.ts`.',
			'```',
			'src/in-a-diagram.ts',
			'```',
		].join('\n');
		const sampleFiles = new Set(['docs/reference/api.md', 'src/fetch.ts', 'src/', 'src/server/', 'scripts/']);
		const problems = problemsOf(['docs', 'reference', 'example.md'].join('/'), sample, sampleFiles, () => '# The JSON API\n## Result codes');
		expect(problems.map(({ named, problem }) => `${named}: ${problem}`)).toEqual([
			'api.md#nowhere: no such heading',
			'gone.md: no such file',
			'src/server/nowhere.ts: no such file',
			'posts/nowhere.ts: no file ends so',
			'scripts/nowhere.mjs: no such file',
		]);
	});
});

describe('the tree listings', () => {
	const folders = (under: string) =>
		[...files].filter((file) => file !== under && file.startsWith(under) && file.endsWith('/') && !file.slice(under.length, -1).includes('/'));

	it('of docs/reference/architecture.md name every folder of src/, src/server/ and functions/', () => {
		const text = read('docs/reference/architecture.md');
		const unnamed = [...folders('src/'), ...folders('functions/')].filter((folder) => !text.includes(`\`${folder}\``));
		const services = folders('src/server/').filter((folder) => !text.includes(`\`${folder.slice('src/server/'.length)}\``));
		expect([...unnamed, ...services]).toEqual([]);
	});

	it('of docs/reference/api.md name every router of functions/api/routers/', () => {
		const text = read('docs/reference/api.md');
		const routers = [...files].filter((file) => /^functions\/api\/routers\/[\w-]+\.ts$/.test(file)).map((file) => path.posix.basename(file, '.ts'));
		expect(routers.length).toBeGreaterThan(10);
		expect(routers.filter((router) => !text.includes(`\`${router}\``))).toEqual([]);
	});

	it("of the README name every folder of src/ and the repository's own top-level folders", () => {
		const text = read('README.md');
		const top = folders('').filter((folder) => !folder.startsWith('.') && folder !== 'src/'); // src/ by its folders
		expect([...folders('src/'), ...top].filter((folder) => !text.includes(`\`${folder}\``))).toEqual([]);
	});
});

describe('the docs pages code comments name', () => {
	const moves = pendingMoves();
	// The source folders and the configuration files at the root (vitest.config.ts, eslint.config.js, …).
	const code = [...files].filter((file) => /^((src|functions|scripts|tests)\/.*|[\w.-]+)\.(ts|tsx|astro|mjs|js|css)$/.test(file));

	it('exist, with their headings, or are moved by docs-moves.tsv to a page that exists', () => {
		const missing = code.flatMap((file) =>
			[...read(file).matchAll(/\bdocs\/[\w/.-]+\.md(?:#[\w-]+)?/g)]
				.map(([named]) => named)
				.filter((named) => {
					const [page = '', anchor] = named.split('#');
					const target = files.has(page) ? page : moves.get(page);
					return !target || !files.has(target) || (anchor !== undefined && !anchorsOf(read(target)).has(anchor));
				})
				.map((named) => `${file}: ${named}`),
		);
		expect(missing).toEqual([]);
	});

	it('docs-moves.tsv, while it exists, moves each page to one that exists', () => {
		expect([...moves].filter(([, to]) => !statSync(path.join(ROOT, to), { throwIfNoEntry: false })?.isFile())).toEqual([]);
	});
});
