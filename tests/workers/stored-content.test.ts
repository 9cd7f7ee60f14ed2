/**
 * The XSS corpus (tests/fixtures/xss-corpus.ts) through the APIs that store member content (drafts, posts): each
 * hostile body is refused with a 400 envelope and nothing stored, or stored as the schema keeps it
 * and rendered with only the allowed tags, attributes and URLs.
 */
import { describe, expect, it } from 'vitest';
import { env } from 'cloudflare:workers';
import { call, memberApi, publicApi, signIn } from './harness';
import { XSS_CORPUS, type CorpusEntry } from '../fixtures/xss-corpus';
import { allowListProblems } from '../fixtures/html-allow-list';
import { renderContentHtml } from '@/server/posts/content-html';

/** The codes a refused body answers (functions/api/input-codes.ts): its field's own, or InvalidParameter. */
const CONTENT_REFUSALS: number[] = [-4001400, -4001434, -4001441, -4001442, -4001443];

const MEMBER = memberApi();
const labels = { playVideo: 'Play video', openImage: 'Open image' };

/** Demo members 1003 to 1032 take turns, each from its own address, so no rate limit is reached. */
let turn = 0;
const cookies = new Map<number, string>();
async function nextWriter(): Promise<{ cookie: string; ip: string }> {
	turn += 1;
	const memberId = 1003 + (turn % 30);
	let cookie = cookies.get(memberId);
	if (!cookie) cookies.set(memberId, (cookie = await signIn(memberId)));
	return { cookie, ip: `203.0.113.${turn % 250}` };
}

async function draftCount(): Promise<number> {
	return (await env.DB.prepare('SELECT count(*) AS count FROM drafts').first<number>('count')) ?? 0;
}

describe('the XSS corpus through the drafts API', () => {
	const check = async (entry: CorpusEntry) => {
		const { cookie, ip } = await nextWriter();
		const before = await draftCount();
		const saved = await call(`${MEMBER}/drafts`, {
			method: 'POST',
			cookie,
			headers: { 'cf-connecting-ip': ip },
			body: { boardId: null, subjectId: null, title: 'corpus', content: entry.document },
		});
		if (entry.expect.kind === 'refuse') expect([saved.status, CONTENT_REFUSALS.includes(saved.code)]).toEqual([400, true]);
		if (entry.expect.kind === 'render') expect(saved.code, saved.body.header.resultMessage).toBe(0);
		if (saved.code !== 0) {
			expect(saved.status).toBeLessThan(500);
			expect(await draftCount()).toBe(before);
			return;
		}
		const { draftId } = saved.body['content'] as { draftId: number };
		const stored = await env.DB.prepare('SELECT content FROM drafts WHERE id = ?1').bind(draftId).first<string>('content');
		const loaded = await call(`${MEMBER}/drafts/${draftId}`, { cookie, headers: { 'cf-connecting-ip': ip } });
		// What the editor gets back is what was stored, and what was stored is what the schema kept.
		expect((loaded.body['content'] as { content: unknown }).content).toEqual(JSON.parse(stored ?? 'null'));
		const html = renderContentHtml(stored ?? '', labels);
		expect(allowListProblems(html), html).toEqual([]);
		if (entry.expect.kind !== 'refuse') for (const text of entry.expect.mustNotContain) expect(html).not.toContain(text);
	};
	for (const entry of XSS_CORPUS) {
		it(entry.name, () => check(entry));
	}
});

async function postCount(): Promise<number> {
	return (await env.DB.prepare('SELECT count(*) AS count FROM posts').first<number>('count')) ?? 0;
}

describe('the XSS corpus through the posts API', () => {
	const check = async (entry: CorpusEntry) => {
		const { cookie, ip } = await nextWriter();
		const before = await postCount();
		const body = {
			boardId: 12,
			subjectId: null,
			title: 'corpus <script>alert(1)</script>',
			content: entry.document,
			isPrivate: false,
			isNotice: false,
			requestId: crypto.randomUUID(),
		};
		const written = await call(`${MEMBER}/posts`, { method: 'POST', cookie, headers: { 'cf-connecting-ip': ip }, body });
		if (entry.expect.kind === 'refuse') expect([written.status, CONTENT_REFUSALS.includes(written.code)]).toEqual([400, true]);
		if (written.code !== 0) {
			// A document the schema keeps may still be no post: nothing but spaces, say (ContentRequired).
			expect(written.status).toBe(400);
			expect(await postCount()).toBe(before);
			return;
		}
		const { postId } = written.body['content'] as { postId: number };
		// What readers get is what the API answers: the stored document, rendered by the one renderer.
		const read = await call(`${publicApi()}/posts/${postId}`);
		const content = read.body['content'] as { title: string; content: string };
		expect(content.title).toBe(body.title);
		const html = renderContentHtml(content.content, labels);
		expect(allowListProblems(html), html).toEqual([]);
		if (entry.expect.kind !== 'refuse') for (const text of entry.expect.mustNotContain) expect(html).not.toContain(text);
	};
	for (const entry of XSS_CORPUS) {
		it(entry.name, () => check(entry));
	}
});
