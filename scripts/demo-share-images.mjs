/**
 * Makes the demo communities' share images (docs/reference/seo.md#share-images): one 1200×630 JPEG each in
 * public/demo/, the picture Facebook, X, LINE, KakaoTalk and Discord show for a link to the
 * community. Each is drawn as HTML over one of the demo's illustrations, with the community's title
 * and season line in its own language, and photographed by Chromium (the one the browser tests
 * use), so no image library is needed. Run it again after changing a title or an illustration:
 *
 *   node scripts/demo-share-images.mjs
 *
 * The images are committed; the seed and the channel files name them (headerConfig.shareImage).
 */
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { ROOT } from './lib/wrangler.mjs';

const WIDTH = 1200;
const HEIGHT = 630;
/** Previews fetch the image on every share; Facebook and LINE take up to 8 MB and 10 MB, but a small one loads at once. */
const MAX_BYTES = 300_000;

const STARFALL_FONTS = {
	en: "'Segoe UI','Helvetica Neue',Arial,sans-serif",
	ko: "'Apple SD Gothic Neo','Malgun Gothic','Noto Sans KR','Noto Sans CJK KR',sans-serif",
	ja: "'Hiragino Sans','Yu Gothic','Meiryo','Noto Sans JP','Noto Sans CJK JP',sans-serif",
	zh: "'PingFang TC','Microsoft JhengHei','Noto Sans TC','Noto Sans CJK TC',sans-serif",
};

/** Each community's card: its file's name, the illustration behind, and the two lines in its language. */
const CARDS = [
	{ file: 'starfall-global', lang: 'en', art: 'shot-01', title: 'Starfall Odyssey', line: 'Season 7: Nebula Drift · Global Community' },
	{ file: 'starfall-kr', lang: 'ko', art: 'shot-01', title: '스타폴 오디세이', line: '시즌 7: 네뷸라 드리프트 · 한국 커뮤니티' },
	{
		file: 'starfall-jp',
		lang: 'ja',
		art: 'shot-01',
		title: 'スターフォール・オデッセイ',
		line: 'シーズン7：ネビュラドリフト · 日本公式コミュニティ',
	},
	{ file: 'starfall-tw', lang: 'zh', art: 'shot-01', title: '星墜奧德賽', line: '第七賽季：星雲漂流 · 台灣官方社群' },
	{ file: 'pixelfarm-main', lang: 'en', art: 'shot-10', title: 'Pixel Farm', line: 'Community · Farm tips, festivals and fan art' },
];

function escape(text) {
	return text.replace(/[&<>"]/g, (character) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[character]);
}

function html(card) {
	const art = readFileSync(path.join(ROOT, 'public', 'demo', `${card.art}.svg`), 'utf8');
	const font = STARFALL_FONTS[card.lang];
	return `<!doctype html><html lang="${card.lang}"><head><meta charset="utf-8"><style>
		html, body { margin: 0; width: ${WIDTH}px; height: ${HEIGHT}px; overflow: hidden; }
		.art { position: absolute; inset: 0; }
		.art svg { width: ${WIDTH}px; height: ${HEIGHT}px; }
		.band { position: absolute; left: 0; right: 0; bottom: 0; padding: 40px 64px 48px;
			background: linear-gradient(to bottom, rgba(8, 10, 30, 0), rgba(8, 10, 30, 0.82) 38%); color: #fff; font-family: ${font}; }
		h1 { margin: 0; font-size: 76px; font-weight: 800; letter-spacing: 2px; line-height: 1.1; text-shadow: 0 2px 12px rgba(0, 0, 0, 0.5); }
		p { margin: 14px 0 0; font-size: 32px; font-weight: 600; color: #e6e1ff; }
	</style></head><body>
		<div class="art">${art.replace('<svg ', '<svg preserveAspectRatio="xMidYMid slice" ')}</div>
		<div class="band"><h1>${escape(card.title)}</h1><p>${escape(card.line)}</p></div>
	</body></html>`;
}

const executablePath = process.env['CHROMIUM_PATH'] ?? ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((file) => existsSync(file));
const browser = await chromium.launch({ executablePath });
try {
	const page = await browser.newPage({ viewport: { width: WIDTH, height: HEIGHT } });
	for (const card of CARDS) {
		await page.setContent(html(card));
		await page.evaluate(() => document.fonts.ready);
		const file = path.join(ROOT, 'public', 'demo', `share-${card.file}.jpg`);
		writeFileSync(file, await page.screenshot({ type: 'jpeg', quality: 86 }));
		const bytes = statSync(file).size;
		if (bytes > MAX_BYTES) throw new Error(`${file} is ${bytes} bytes, over ${MAX_BYTES}`);
		console.log(`${path.relative(ROOT, file)}: ${WIDTH}×${HEIGHT}, ${Math.round(bytes / 1024)} KB`);
	}
} finally {
	await browser.close();
}
