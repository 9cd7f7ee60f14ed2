/**
 * Pages and their loaders read D1 by name (src/server/platform/reads.ts): a page gives a record of
 * reads and gets `page.read.<name>`, never a batch result by position.
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ChannelPage } from '@/server/loaders/channel-page';
import type { Read, ReadGroup, ReadValues } from '@/server/platform/reads';

const ROOTS = ['src/pages', 'src/server/loaders'];

/**
 * What taking a batch's results by position looks like: the results array under its old name, a
 * D1Result array, a batch sent by the page itself, a result indexed by a number or a counter, and
 * results destructured into a list.
 */
const POSITIONAL: [string, RegExp][] = [
	['the results array of a batch (`alongside`)', /\balongside\b/],
	['a list of D1 results', /D1Result(?:<[^>]*>)?\[\]/],
	['a batch sent by a page or loader', /\.batch\(/],
	// (a result's own rows, `result.results[0]`, are a read's to parse)
	['a batch result taken by its index', /(?<![.\w])(?:read|results?)\[(?:\d+|\w+Reads?)\]|\bpage\.\w+\[/],
	['batch results destructured by position', /const \[\s*\w+Result\b/],
];

function filesUnder(root: string): string[] {
	return readdirSync(root, { withFileTypes: true, recursive: true })
		.filter((entry) => entry.isFile() && /\.(astro|ts)$/.test(entry.name))
		.map((entry) => path.join(entry.parentPath, entry.name));
}

describe('named reads', () => {
	it('no page or loader takes a batch result by position', () => {
		const found = ROOTS.flatMap(filesUnder).flatMap((file) =>
			readFileSync(file, 'utf8')
				.split('\n')
				.flatMap((line, index) =>
					POSITIONAL.filter(([, pattern]) => pattern.test(line)).map(([what]) => `${file}:${index + 1}: ${what}: ${line.trim()}`),
				),
		);
		expect(found).toEqual([]);
	});

	it("types a page's values by the names of its reads, and has no value by position", () => {
		type Values = ReadValues<{ post: Read<{ title: string }>; liked?: Read<boolean>; page: ReadGroup<number[]> }>;
		const values: Values = { post: { title: 't' }, page: [1] };
		expect(values.post.title).toBe('t');
		const page = { read: values } as Pick<ChannelPage<{ post: Read<{ title: string }> }>, 'read'>;
		// @ts-expect-error a page's reads are named: there is no result by position
		expect(page.read[0]).toBeUndefined();
		// @ts-expect-error a read left out of the record has no value
		expect(page.read.liked).toBeUndefined();
	});
});
