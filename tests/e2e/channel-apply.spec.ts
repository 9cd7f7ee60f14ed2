/**
 * An operator sets up a community from a file: `npm run channel -- apply FILE --database DB_3` on the
 * browser tests' databases prints what it creates in the spare content database, a second run prints no changes, an invalid file
 * is refused with the field and the reason (exit code 2) and changes nothing, and the new
 * community's pages render in Chromium in its language and theme, and it can be signed into
 * through the local identity provider.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';
import { expect, test } from './test';
import { execute } from './fixtures';
import { PNG } from '../fixtures/images';
import { chooseNewAccount } from './sign-in-helpers';

const STATE = path.join('.wrangler', 'test-state');
const DIR = path.join('test-results', 'channel-apply');

/** `npm run channel -- apply FILE` on the test database: its exit code and what it printed. */
function applyFile(file: string, ...options: string[]): { status: number | null; out: string; err: string } {
	const result = spawnSync(process.execPath, [path.join('scripts', 'channel.mjs'), 'apply', file, '--persist-to', STATE, ...options], {
		encoding: 'utf8',
	});
	return { status: result.status, out: result.stdout, err: result.stderr };
}

/** The Japanese demo community's file as a new community: another slug, a new title, no fixed ids. */
function newFile(slug: string): Record<string, unknown> {
	const file = JSON.parse(readFileSync(path.join('channels', 'starfall-jp.json'), 'utf8')) as Record<string, unknown> & {
		header: Record<string, unknown>;
		boards: Record<string, unknown>[];
		tree: Record<string, unknown>[];
	};
	delete file['id'];
	file['slug'] = slug;
	// Signed into through the local provider (which accepts every community's return).
	file['providers'] = ['GOOGLE'];
	file.header['title'] = 'スターフォール 攻略コミュニティ';
	file.header['keyColor'] = '#7c3aed';
	// Images the operator keeps on other hosts: the pages' img-src takes their origins.
	(file['headerConfig'] as Record<string, unknown>)['gameBiIcon'] = 'https://cdn.example.com/guides/brand.png';
	file['banner'] = { backgroundColor: '#0b0f2a', imageUrl: 'https://img.example.org:8443/banner.png' };
	const strip = (node: Record<string, unknown>) => {
		delete node['id'];
		(node['children'] as Record<string, unknown>[] | undefined)?.forEach(strip);
	};
	for (const board of file.boards) {
		delete board['id'];
		(board['categories'] as Record<string, unknown>[]).forEach((category) => delete category['id']);
	}
	file.tree.forEach(strip);
	return file;
}

test('a community file creates a working community; again changes nothing; an invalid one is refused', async ({ page }) => {
	// Five runs of the command (each bundles it and opens the database) and two pages: an upper bound,
	// not a timing (150 s ran out once beside a type check on a 2-core machine; alone it takes about 30 s).
	test.setTimeout(300_000);
	mkdirSync(DIR, { recursive: true });
	const slug = `guides${test.info().repeatEachIndex}${test.info().retry}`;
	const file = path.join(DIR, `${slug}.json`);
	writeFileSync(file, JSON.stringify(newFile(slug), null, '\t'));
	const channels = () => execute('SELECT count(*) AS n FROM channels') as { n: number }[];
	const before = channels();

	try {
		const invalid = path.join(DIR, `${slug}-invalid.json`);
		const broken = newFile(slug) as { header: Record<string, unknown>; content: Record<string, unknown> };
		broken.header['keyColor'] = 'purple';
		broken.content['exposureBoard'] = 'nowhere';
		writeFileSync(invalid, JSON.stringify(broken));
		const refused = applyFile(invalid);
		expect(refused.status).toBe(2);
		expect(refused.err).toContain('header.keyColor: must be a colour like #4f46e5');
		expect(refused.err).toContain('content.exposureBoard: no board has the key "nowhere"');
		expect(refused.err).toContain('nothing was changed');
		expect(channels()).toEqual(before);

		// A copied file that still gives another community's id: refused, exit 2.
		const copied = path.join(DIR, `${slug}-copied.json`);
		writeFileSync(copied, JSON.stringify({ ...JSON.parse(readFileSync(path.join('channels', 'starfall-jp.json'), 'utf8')), id: 1 }));
		const clash = applyFile(copied);
		expect(clash.status).toBe(2);
		expect(clash.err).toContain("id: starfall/jp has the id 3, not 1 (1 is starfall/global's id)");
		expect(clash.err).toContain('nothing was changed');

		const dry = applyFile(file, '--dry-run');
		expect(dry.status).toBe(0);
		expect(dry.out).toContain('(dry run: nothing written)');
		expect(channels()).toEqual(before);

		// Made in the spare content database: the directory names it, its rows are there alone.
		const created = applyFile(file, '--database', 'DB_3');
		expect(created.status, created.err).toBe(0);
		expect(created.out).toContain(`starfall/${slug}: a new community in DB_3`);
		expect(created.out).toContain(`+ community starfall/${slug}`);
		expect(execute(`SELECT database FROM channels WHERE slug = '${slug}'`)).toEqual([{ database: 'DB_3' }]);
		expect(execute(`SELECT count(*) AS n FROM boards WHERE channel_id = (SELECT id FROM channels WHERE slug = '${slug}')`, 'DB_3')).toEqual([
			{ n: (newFile(slug)['boards'] as unknown[]).length },
		]);
		expect(created.out).toContain('+ board notice');
		expect(channels()[0]!.n).toBe(before[0]!.n + 1);
		const again = applyFile(file);
		expect(again.status).toBe(0);
		expect(again.out.trim()).toBe(`starfall/${slug}: no changes.`);
		// The same community written in YAML is the same file.
		const yamlFile = path.join(DIR, `${slug}.yaml`);
		writeFileSync(yamlFile, stringify(newFile(slug)));
		const asYaml = applyFile(yamlFile);
		expect(asYaml.status, asYaml.err).toBe(0);
		expect(asYaml.out.trim()).toBe(`starfall/${slug}: no changes.`);

		// Its pages: the community opens on its announcements (BOARD_SELECTION), in Japanese, in its
		// colour, with its images from their hosts (served here by the test) and no policy violation.
		await page.route(/^https:\/\/(?:cdn\.example\.com|img\.example\.org:8443)\//, (route) =>
			route.fulfill({ contentType: 'image/png', body: Buffer.from(PNG) }),
		);
		const opened = await page.request.get(`/starfall/${slug}/boards`);
		expect(opened.headers()['content-security-policy']).toContain(
			"img-src 'self' https://i.ytimg.com https://cdn.example.com https://img.example.org:8443;",
		);
		await page.goto(`/starfall/${slug}`);
		await expect(page).toHaveURL(new RegExp(`/starfall/${slug}/boards/\\d+$`));
		await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
		await expect(page.getByRole('heading', { level: 1 })).toHaveText('お知らせ');
		for (const src of ['https://cdn.example.com/guides/brand.png', 'https://img.example.org:8443/banner.png']) {
			await expect
				.poll(
					() =>
						page
							.locator(`img[src="${src}"]`)
							.first()
							.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0),
					src,
				)
				.toBe(true);
		}
		expect(await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--key').trim())).toBe('#7c3aed');
		await page.locator('.tree').first().getByRole('link', { name: '攻略・Tips' }).click();
		await expect(page.getByRole('heading', { level: 1 })).toHaveText('攻略・Tips');
		await expect(page.getByText('まだ投稿がありません。')).toBeVisible();

		// Signing in to it through the local provider: its chooser, not invalid_redirect_uri, and
		// back to the community's sign-up as a new member.
		await page.goto(`/starfall/${slug}/login`);
		await page.locator('[data-login-form] button[value="GOOGLE"]').click();
		await expect(page.getByRole('heading', { name: 'Local Google (development)', exact: true })).toBeVisible();
		await expect(page.getByText(`Signing in to /starfall/${slug}.`)).toBeVisible();
		await chooseNewAccount(page, `apply-${slug}`);
		await expect(page).toHaveURL(new RegExp(`/starfall/${slug}/signup`));
	} finally {
		const mine = `(SELECT id FROM channels WHERE domain = 'starfall' AND slug = '${slug}')`;
		const removal =
			['signups', 'oauth_transactions', 'board_tree_nodes', 'board_subjects', 'boards', 'channel_providers']
				.map((table) => `DELETE FROM ${table} WHERE channel_id IN ${mine};`)
				.join(' ') + ` DELETE FROM channels WHERE domain = 'starfall' AND slug = '${slug}';`;
		// The community's rows in DB_3, then the directory's row of it (docs/reference/databases.md).
		for (const database of ['DB_3', 'DB'] as const) execute(removal, database);
	}
});
