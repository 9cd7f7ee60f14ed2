import { test } from './test';
import { execute } from './fixtures';

const sizes = [
	{ name: 'phone', width: 390, height: 844 },
	{ name: 'desktop', width: 1440, height: 900 },
];
test('look', async ({ browser }) => {
	test.setTimeout(300_000);
	const fanart = (channel: number) =>
		(execute(`SELECT id FROM posts WHERE channel_id = ${channel} AND board_id = ${channel * 10 + 4} AND comment_count >= 2 AND channel_seq IS NOT NULL ORDER BY id LIMIT 1 OFFSET 3`) as { id: number }[])[0]!.id;
	const pages = [
		['tw-boards', '/starfall/tw/boards'],
		['kr-boards', '/starfall/kr/boards'],
		['global-fanart', `/starfall/global/posts/${fanart(1)}`],
		['kr-fanart', `/starfall/kr/posts/${fanart(2)}`],
		['tw-fanart', `/starfall/tw/posts/${fanart(5)}`],
		['farm-fanart', `/pixelfarm/main/posts/${fanart(4)}`],
	];
	for (const scheme of ['light', 'dark'] as const) {
		for (const size of sizes) {
			const context = await browser.newContext({ viewport: { width: size.width, height: size.height }, colorScheme: scheme });
			const page = await context.newPage();
			for (const [name, path] of pages) {
				await page.goto(path!);
				await page.screenshot({ path: `/tmp/demo-look/page-${name}-${size.name}-${scheme}.png`, fullPage: name!.includes('fanart') && size.name === 'desktop' });
			}
			await context.close();
		}
	}
});
