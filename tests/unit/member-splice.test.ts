/**
 * The splice of a member's parts into a stored page (functions/shell/splice.ts), on places given by
 * hand: byte offsets in text of several bytes a character (Korean), several parts on one page and on
 * one element, parts inside what another replaces, and places that do not fit the bytes. That the
 * splice gives HTMLRewriter's bytes on the places HTMLRewriter finds is tests/workers/member-splice.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { splicePage, type MemberPart, type PageSpots, type Spot } from '@functions/shell/splice';

const encoder = new TextEncoder();
const bytesOf = (text: string) => encoder.encode(text).byteLength;

/** The spot of the element whose start tag is `startTag` and end tag `endTag` (the first after it), by byte offsets of `page`. */
function spotOf(page: string, startTag: string, endTag: string | null, selectors: number): Spot {
	const at = page.indexOf(startTag);
	const start = bytesOf(page.slice(0, at));
	const startEnd = start + bytesOf(startTag);
	if (endTag === null) return { start, startEnd, endStart: -1, end: -1, selectors };
	const endAt = page.indexOf(endTag, at + startTag.length);
	const endStart = bytesOf(page.slice(0, endAt));
	return { start, startEnd, endStart, end: endStart + bytesOf(endTag), selectors };
}

const SELECTORS = ['div.a', 'span#x', 'p.gone', 'b', 'ol'];

const PAGE =
	'<!doctype html><p class="gone">한국어 <b>굵게</b> 문장</p><div  class="a" data-k=\'값\'>안녕하세요 🌟</div><span id="x">세계</span><ol></ol><footer>끝 — 終わり</footer>';

function spotsOf(page: string): PageSpots {
	return {
		length: bytesOf(page),
		spots: [
			spotOf(page, '<p class="gone">', '</p>', 1 << 2),
			spotOf(page, '<b>', '</b>', 1 << 3),
			spotOf(page, '<div  class="a" data-k=\'값\'>', '</div>', 1 << 0),
			spotOf(page, '<span id="x">', '</span>', 1 << 1),
			spotOf(page, '<ol>', '</ol>', 1 << 4),
		],
	};
}

const splice = async (page: string, spots: PageSpots, parts: MemberPart[]) => {
	const made = splicePage(encoder.encode(page).buffer as ArrayBuffer, spots, SELECTORS, parts);
	return made === null ? null : new TextDecoder().decode(made);
};

describe('the splice of member parts into stored bytes', () => {
	it('puts several parts in at byte offsets past Korean text, emoji and Japanese', async () => {
		const read: (string | null)[] = [];
		const parts: MemberPart[] = [
			{
				selector: 'div.a',
				element(div) {
					read.push(div.getAttribute('data-k'), div.getAttribute('class'), div.getAttribute('missing'));
					div.setAttribute('data-user', '회원 "별"');
					div.setAttribute('class', 'a member');
					div.before('<i>앞</i>', { html: true });
					div.prepend('<em>처음</em>', { html: true });
				},
			},
			{
				selector: 'span#x',
				element(span) {
					span.tagName = 'strong';
					span.after('<u>뒤</u>', { html: true });
					span.append('!', { html: true });
				},
			},
			{ selector: 'ol', element: (list) => void list.setInnerContent('<li>하나</li>', { html: true }) },
		];
		expect(await splice(PAGE, spotsOf(PAGE), parts)).toBe(
			'<!doctype html><p class="gone">한국어 <b>굵게</b> 문장</p><i>앞</i><div class="a member" data-k=\'값\' data-user="회원 &quot;별&quot;"><em>처음</em>안녕하세요 🌟</div><strong id="x">세계!</strong><u>뒤</u><ol><li>하나</li></ol><footer>끝 — 終わり</footer>',
		);
		expect(read).toEqual(['값', 'a', null]);
	});

	it('drops what is put inside an element a part replaces or removes, and keeps what goes before and after it', async () => {
		const parts: MemberPart[] = [
			{
				selector: 'p.gone',
				element(paragraph) {
					paragraph.before('[', { html: true });
					paragraph.replace('<p>새 문단</p>', { html: true });
					paragraph.after(']', { html: true });
				},
			},
			{ selector: 'b', element: (bold) => void bold.setAttribute('class', '안') },
			{ selector: 'div.a', element: (div) => void div.remove() },
		];
		expect(await splice(PAGE, spotsOf(PAGE), parts)).toBe(
			'<!doctype html>[<p>새 문단</p>]<span id="x">세계</span><ol></ol><footer>끝 — 終わり</footer>',
		);
	});

	it('runs an end tag’s handlers when the page reaches it, after the handlers of what it holds', async () => {
		let seen = '';
		const parts: MemberPart[] = [
			{
				selector: 'p.gone',
				element(paragraph) {
					paragraph.onEndTag((end) => end.after(`<!--${seen}-->`, { html: true }));
					paragraph.after('after', { html: true });
				},
			},
			{ selector: 'b', element: () => void (seen += 'b') },
			{ selector: 'div.a', element: () => void (seen += 'div') },
		];
		expect(await splice(PAGE, spotsOf(PAGE), parts)).toContain('문장</p><!--b-->after<div');
	});

	it('writes the markup as TextEncoder does: two, three and four bytes a character, and a lone surrogate as U+FFFD', async () => {
		const parts: MemberPart[] = [
			{ selector: 'b', element: (bold) => void bold.before('é한😀', { html: true }) },
			{ selector: 'span#x', element: (span) => void span.append('\uD800x\uDC00', { html: true }) },
			{ selector: 'ol', element: (list) => void list.setInnerContent('<li>ascii</li>', { html: true }) },
		];
		const made = await splice(PAGE, spotsOf(PAGE), parts);
		expect(made).toBe(
			PAGE.replace('<b>', 'é한😀<b>').replace('세계</span>', '세계\uFFFDx\uFFFD</span>').replace('<ol></ol>', '<ol><li>ascii</li></ol>'),
		);
	});

	it('leaves an unchanged page as it is, and refuses places that do not fit the bytes', async () => {
		const spots = spotsOf(PAGE);
		const none: MemberPart[] = [{ selector: 'div.a', element: () => undefined }];
		expect(await splice(PAGE, spots, none)).toBe(PAGE);
		const touch: MemberPart[] = [{ selector: 'div.a', element: (div) => void div.setAttribute('x', '1') }];
		// Places of the page before one character was added to its text: one byte short, or every tag moved.
		expect(await splice(`${PAGE}!`, spots, touch)).toBeNull();
		const moved = PAGE.replace('한국어', '한국어어').replace('끝 — ', '끝  ');
		expect(bytesOf(moved)).toBe(spots.length);
		expect(await splice(moved, spots, touch)).toBeNull();
		// A selector not in the list the places were found with.
		expect(await splice(PAGE, spots, [{ selector: 'p', element: () => undefined }])).toBeNull();
		// A part that needs an end tag the element has not.
		const noEnd = { ...spots, spots: spots.spots.map((spot) => (spot.selectors === 1 ? { ...spot, endStart: -1, end: -1 } : spot)) };
		expect(await splice(PAGE, noEnd, [{ selector: 'div.a', element: (div) => void div.after('x', { html: true }) }])).toBeNull();
		expect(await splice(PAGE, noEnd, touch)).toContain('<div class="a" data-k=\'값\' x="1">');
	});
});
