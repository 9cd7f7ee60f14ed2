/**
 * A channel page answers "not found" with one block, src/components/common/NotFound.astro (the card, its
 * texts, the previous-page button and the link home). No page or component under a channel builds
 * the block again from ErrorBlock with the not-found texts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const HOME = 'src/components/common/NotFound.astro';
const ROOTS = ['src/pages/[domain]', 'src/components', 'src/layouts'];
/** An ErrorBlock element whose attributes name a not-found text (`error.notFoundPage.*`, `post.notFound.*`, `user.notFound`). */
const NOT_FOUND_BLOCK = /<ErrorBlock\b(?:[^>]|=>)*?\b(?:notFoundPage|notFound)\b/;

const astroFiles = (): string[] =>
	ROOTS.flatMap((root) =>
		readdirSync(root, { recursive: true, withFileTypes: true })
			.filter((entry) => entry.isFile() && entry.name.endsWith('.astro'))
			.map((entry) => path.join(entry.parentPath, entry.name).split(path.sep).join('/')),
	);

describe("a channel's not-found block", () => {
	const files = astroFiles();

	it('finds the channel pages and the block', () => {
		expect(files).toContain('src/pages/[domain]/[slug]/[...rest].astro');
		expect(files).toContain(HOME);
		expect(readFileSync(HOME, 'utf8')).toMatch(NOT_FOUND_BLOCK);
	});

	it(`has one home, ${HOME}: no other page or component builds it from ErrorBlock`, () => {
		const copies = files.filter((file) => file !== HOME && NOT_FOUND_BLOCK.test(readFileSync(file, 'utf8')));
		expect(copies).toEqual([]);
	});
});
