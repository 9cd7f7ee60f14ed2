/**
 * Template guidance (src/schemas/guidance.ts): a post never publishes a
 * template's guidance. The server drops every guidance block left empty and keeps what the writer
 * wrote in one as a paragraph, on create and on edit, whatever the browser sent; a body of nothing
 * but guidance is ContentRequired; a malformed guidance block is InvalidParameter (a hint too
 * long ContentTooLarge); drafts keep
 * guidance as it is. Publishing guidance writes no more rows than the same post without it.
 */
import { describe, expect, it } from 'vitest';
import { env } from 'cloudflare:workers';
import { createPost } from '@/server/posts/writing';
import { publishedDocument } from '@/schemas/guidance';
import { DocumentSchema, type ContentDocument } from '@/schemas/content';
import { call, memberApi, publicApi, recordingDb, signIn } from './harness';

const MEMBER = memberApi();
const PUBLIC = publicApi();
/** Demo members of starfall/global that no other test file writes with. */
const WRITER = 1017;
const EDITOR = 1018;

const HINT = 'Thanks for reporting! Fill in each part below so the team can reproduce the problem.';
const guidance = (hint: string, text?: string) => ({ type: 'guidance', hint, children: text === undefined ? [] : [{ text }] });
const heading = (text: string) => ({ type: 'heading', level: 2, children: [{ text }] });

function postBody(blocks: unknown[], overrides: Record<string, unknown> = {}) {
	return {
		boardId: 12,
		subjectId: null,
		title: 'Crash on the title screen',
		content: { type: 'doc', blocks },
		isPrivate: false,
		isNotice: false,
		requestId: crypto.randomUUID(),
		...overrides,
	};
}

async function storedPost(postId: number): Promise<{ content: string; content_text: string }> {
	return (await env.DB.prepare('SELECT content, content_text FROM posts WHERE id = ?1')
		.bind(postId)
		.first<{ content: string; content_text: string }>())!;
}

async function postCount(): Promise<number> {
	return (await env.DB.prepare('SELECT count(*) AS n FROM posts').first<number>('n'))!;
}

/** A bug report as the seeded template has it, with only the summary filled in. */
const filledReport = [
	guidance(HINT),
	heading('Summary'),
	guidance('What went wrong, in one sentence.', 'The game closes when I open the hangar.'),
	heading('Steps to reproduce'),
	guidance('What you did, one step per line, up to the moment it happened.'),
	heading('Actual result'),
	guidance('What happened instead (error messages, screenshots).', '   '),
];

describe('publishing a template with guidance', () => {
	it('drops the guidance left empty and keeps what was written in one as a paragraph, with no hint anywhere', async () => {
		const cookie = await signIn(WRITER);
		const answer = await call(`${MEMBER}/posts`, { method: 'POST', cookie, body: postBody(filledReport) });
		expect(answer.code, JSON.stringify(answer.body)).toBe(0);
		const postId = (answer.body['content'] as { postId: number }).postId;
		const stored = await storedPost(postId);
		expect(JSON.parse(stored.content)).toEqual({
			type: 'doc',
			blocks: [
				heading('Summary'),
				{ type: 'paragraph', children: [{ text: 'The game closes when I open the hangar.' }] },
				heading('Steps to reproduce'),
				heading('Actual result'),
			],
		});
		// Nor in the search text, nor in the page readers get.
		expect(stored.content_text).not.toMatch(/Thanks for reporting|one sentence|one step per line|error messages/);
		const page = await call(`${PUBLIC}/posts/${postId}`);
		expect(JSON.stringify(page.body)).not.toMatch(/Thanks for reporting|one sentence|guidance/);
		expect(JSON.stringify(page.body)).toContain('The game closes when I open the hangar.');
	});

	it('drops guidance on an edit too', async () => {
		const cookie = await signIn(EDITOR);
		const created = await call(`${MEMBER}/posts`, {
			method: 'POST',
			cookie,
			body: postBody([heading('Summary'), { type: 'paragraph', children: [{ text: 'First words.' }] }]),
		});
		const postId = (created.body['content'] as { postId: number }).postId;
		const edited = await call(`${MEMBER}/posts/${postId}`, {
			method: 'PUT',
			cookie,
			body: { ...postBody(filledReport), requestId: undefined, version: 1 },
		});
		expect(edited.code, JSON.stringify(edited.body)).toBe(0);
		const content = (await storedPost(postId)).content;
		expect(content).not.toContain('guidance');
		expect(content).not.toContain(HINT);
		expect(JSON.parse(content).blocks).toHaveLength(4);
	});

	it('refuses a body of nothing but guidance as empty (ContentRequired), and writes nothing', async () => {
		const cookie = await signIn(WRITER);
		const before = await postCount();
		for (const blocks of [[guidance(HINT)], [guidance(HINT), guidance('What should have happened.', ' \n ')]]) {
			const answer = await call(`${MEMBER}/posts`, { method: 'POST', cookie, body: postBody(blocks) });
			expect(answer.code).toBe(-4001433);
			expect(answer.body['header']).toMatchObject({ isSuccessful: false, resultMessage: 'Please enter the content.' });
		}
		expect(await postCount()).toBe(before);
	});

	it('answers a malformed guidance block with its catalogue code, and writes nothing', async () => {
		const cookie = await signIn(WRITER);
		const before = await postCount();
		const invalid = { code: -4001400, message: 'The request has an invalid parameter: content.' };
		// A hint over 500 characters is a body too large, as any text over the content's limits.
		const tooLarge = { code: -4001434, message: 'The post is too long. Please shorten it.' };
		const malformed: [unknown, typeof invalid][] = [
			[{ type: 'guidance' }, invalid],
			[{ type: 'guidance', hint: '' }, invalid],
			[{ type: 'guidance', hint: 42 }, invalid],
			[{ type: 'guidance', hint: 'Describe it.', children: 'typed text' }, invalid],
			[{ type: 'guidance', hint: 'Describe it.', children: [{ text: 7 }] }, invalid],
			[{ type: 'guidance', hint: 'x'.repeat(501) }, tooLarge],
		];
		for (const [block, expected] of malformed) {
			const answer = await call(`${MEMBER}/posts`, { method: 'POST', cookie, body: postBody([heading('Summary'), block]) });
			expect(answer.status, JSON.stringify(block)).toBe(400);
			// The catalogue's code and message, never the validator's own words.
			expect(answer.code, JSON.stringify(block)).toBe(expected.code);
			expect(answer.body['header']).toMatchObject({ resultMessage: expected.message });
			const draft = await call(`${MEMBER}/drafts`, {
				method: 'POST',
				cookie,
				body: { boardId: 12, subjectId: null, title: 'Draft', content: { type: 'doc', blocks: [block] } },
			});
			expect(draft.code, JSON.stringify(block)).toBe(expected.code);
		}
		expect(await postCount()).toBe(before);
	});

	it('keeps guidance as it is in a draft, so the hints show again when it is opened', async () => {
		const cookie = await signIn(WRITER);
		const content = { type: 'doc', blocks: filledReport };
		const saved = await call(`${MEMBER}/drafts`, { method: 'POST', cookie, body: { boardId: 12, subjectId: null, title: 'Half a report', content } });
		expect(saved.code, JSON.stringify(saved.body)).toBe(0);
		const draftId = (saved.body['content'] as { draftId: number }).draftId;
		const read = await call(`${MEMBER}/drafts/${draftId}`, { cookie });
		expect((read.body['content'] as { content: unknown }).content).toEqual(content);
		await call(`${MEMBER}/drafts/${draftId}`, { method: 'DELETE', cookie });
	});

	it('writes no more rows for a post with guidance than for the same post without it', async () => {
		const member = {
			userId: WRITER,
			nickname: 'writer',
			role: 'MEMBER' as const,
			provider: 'GOOGLE' as const,
			recentProvider: 'GOOGLE' as const,
			joinedAt: 0,
		};
		const rowsOf = async (blocks: unknown[]) => {
			const { db, statements } = recordingDb();
			const input = DocumentSchema.parse({ type: 'doc', blocks });
			await createPost(
				db,
				1,
				member,
				{ boardId: 12, subjectId: null, title: 'Rows', content: input, isPrivate: false, isNotice: false, requestId: crypto.randomUUID() },
				Date.now(),
			);
			return statements.reduce((sum, statement) => sum + statement.rowsWritten, 0);
		};
		// 200 untouched guidance blocks beside the same text: the same rows.
		const many = Array.from({ length: 200 }, (_, index) => guidance(`Hint ${index}`));
		const plain = await rowsOf([{ type: 'paragraph', children: [{ text: 'Same text.' }] }]);
		expect(await rowsOf([...many, guidance('Say it.', 'Same text.')])).toBe(plain);
	});
});

describe('publishedDocument', () => {
	it('leaves a document without guidance as it is, and never answers a guidance block', () => {
		const plain: ContentDocument = { type: 'doc', blocks: [{ type: 'paragraph', children: [{ text: 'Hello' }] }] };
		expect(publishedDocument(plain)).toBe(plain);
		const parsed = DocumentSchema.parse({ type: 'doc', blocks: filledReport });
		expect(publishedDocument(parsed).blocks.map((block) => block.type)).toEqual(['heading', 'paragraph', 'heading', 'heading']);
		// A guidance block written in a channel file may leave out `children`: the schema makes it empty.
		expect(DocumentSchema.parse({ type: 'doc', blocks: [{ type: 'guidance', hint: 'Say it.' }] }).blocks[0]).toEqual({
			type: 'guidance',
			hint: 'Say it.',
			children: [],
		});
	});
});
