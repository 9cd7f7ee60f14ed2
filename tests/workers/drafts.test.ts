/**
 * Server drafts (/v1/{domain}/{slug}/drafts): a member reads and changes only their own drafts of
 * the channel, every refusal is an envelope that changes nothing, the limit per member holds under
 * racing saves, the list pages newest-updated first with its count, and each action reads and
 * writes a bounded number of rows.
 */
import { describe, expect, it } from 'vitest';
import { env } from 'cloudflare:workers';
import migration0006 from '../../migrations/0006_add_draft_limit.sql?raw';
import { call, GLOBAL, KOREAN, memberApi, recordingDb, signIn, signUp, startOfRateWindow } from './harness';
import { createDraft, deleteDraft, getDraft, listDrafts, updateDraft } from '@/server/drafts/drafts';
import { createPost } from '@/server/posts/writing';
import type { SessionMember } from '@/server/sign-in/sessions';
import { storeUpload } from '@/server/uploads/uploads';
import { claimUploadsStatements, uploadKeysOf } from '@/server/uploads/claims';
import { uploadKeyOf } from '@/schemas/content';
import * as images from '../fixtures/images';
import { DRAFT_LIMIT, TITLE_MAX_LENGTH, type DraftFields } from '@/schemas/post-write';
import { LIMITERS } from '@/server/platform/rate-limit';
import { PAGE_SIZE } from '@/schemas/params';
import type { ContentDocument } from '@/schemas/content';
import { NEW_ID_ROWS_READ } from '@/server/databases/ids';

const MEMBER = memberApi();
const ADMIN_ID = 1001;
/** The demo's draft of member 1002 in /starfall/global, and of member 2002 in /starfall/kr. */
const DEMO_DRAFT = 101;
const KOREAN_DRAFT = 201;
const BOARDS = { notice: 11, general: 12, bugs: 16, staff: 17, koreanGeneral: 22 };
/** A category of the general board, and one of the bug-report board. */
const GENERAL_SUBJECT = 121;
const BUGS_SUBJECT = 161;

const doc = (text: string): ContentDocument => ({ type: 'doc', blocks: [{ type: 'paragraph', children: [{ text }] }] });
const fields = (overrides: Partial<DraftFields> = {}): DraftFields => ({
	boardId: BOARDS.general,
	subjectId: null,
	title: 'A draft',
	content: doc('Unfinished thoughts'),
	...overrides,
});

let members = 0;
/** A new member of /starfall/global, so that each test counts against its own rate limits. */
async function newMember(): Promise<{ cookie: string; userId: number }> {
	members += 1;
	return signUp(`drafts-test-${members}-${crypto.randomUUID()}`, `Drafter${members}x${Math.floor(Math.random() * 1e6)}`);
}

async function save(cookie: string, body: unknown = fields()) {
	return call(`${MEMBER}/drafts`, { method: 'POST', cookie, body });
}

function contentOf<T>(answer: { body: Record<string, unknown> }): T {
	return answer.body['content'] as T;
}

/** Every drafts row as text, to prove a refused request changed nothing. */
async function draftsTable(): Promise<string> {
	return JSON.stringify((await env.DB.prepare('SELECT * FROM drafts ORDER BY id').all()).results);
}

/** Puts `count` drafts of a member straight into D1 (faster than the API and its rate limits). */
async function plantDrafts(memberId: number, count: number, channelId = GLOBAL.id, firstUpdatedAt = 1_000_000): Promise<void> {
	const statements = Array.from({ length: count }, (_, i) =>
		env.DB.prepare(
			'INSERT INTO drafts (channel_id, member_id, board_id, title, content, created_at, updated_at) VALUES (?1, ?2, NULL, ?3, ?4, ?5, ?5)',
		).bind(channelId, memberId, `planted ${i}`, JSON.stringify(doc('')), firstUpdatedAt + i),
	);
	for (let i = 0; i < statements.length; i += 50) await env.DB.batch(statements.slice(i, i + 50));
}

describe('who may use a draft', () => {
	it('refuses a guest with -4011401 on every route, and changes nothing', async () => {
		const before = await draftsTable();
		const answers = await Promise.all([
			call(`${MEMBER}/drafts`),
			call(`${MEMBER}/drafts/${DEMO_DRAFT}`),
			call(`${MEMBER}/drafts`, { method: 'POST', body: fields() }),
			call(`${MEMBER}/drafts/${DEMO_DRAFT}`, { method: 'PUT', body: fields() }),
			call(`${MEMBER}/drafts/${DEMO_DRAFT}`, { method: 'DELETE' }),
		]);
		for (const answer of answers) expect([answer.status, answer.code]).toEqual([401, -4011401]);
		expect(await draftsTable()).toBe(before);
	});

	it('lets the author read, list, overwrite and delete their own draft', async () => {
		const cookie = await signIn(1002);
		const loaded = await call(`${MEMBER}/drafts/${DEMO_DRAFT}`, { cookie });
		expect(loaded.code).toBe(0);
		expect(contentOf<{ draftId: number; boardId: number; content: ContentDocument }>(loaded)).toMatchObject({
			draftId: DEMO_DRAFT,
			boardId: BOARDS.general,
			subjectId: null,
		});
		const list = await call(`${MEMBER}/drafts`, { cookie });
		expect(contentOf<{ drafts: { draftId: number }[] }>(list).drafts.map((draft) => draft.draftId)).toContain(DEMO_DRAFT);
	});

	it("answers another member's draft id with -4041407 on read, overwrite and delete, revealing and changing nothing", async () => {
		const { cookie } = await newMember();
		const before = await draftsTable();
		const answers = [
			await call(`${MEMBER}/drafts/${DEMO_DRAFT}`, { cookie }),
			await call(`${MEMBER}/drafts/${DEMO_DRAFT}`, { method: 'PUT', cookie, body: fields({ title: 'taken over' }) }),
			await call(`${MEMBER}/drafts/${DEMO_DRAFT}`, { method: 'DELETE', cookie }),
			// The same answer as for an id that does not exist at all.
			await call(`${MEMBER}/drafts/987654321`, { cookie }),
		];
		for (const answer of answers) {
			expect([answer.status, answer.code]).toEqual([404, -4041407]);
			expect(answer.body['content']).toBeUndefined();
		}
		expect(answers.map((answer) => answer.body.header.resultMessage)).toEqual(Array(4).fill('The draft does not exist.'));
		const list = await call(`${MEMBER}/drafts`, { cookie });
		expect(contentOf<{ totalCount: number }>(list).totalCount).toBe(0);
		expect(await draftsTable()).toBe(before);
	});

	it("answers an administrator asking for a member's draft the same way", async () => {
		const cookie = await signIn(ADMIN_ID);
		expect((await call(`${MEMBER}/drafts/${DEMO_DRAFT}`, { cookie })).code).toBe(-4041407);
		expect((await call(`${MEMBER}/drafts/${DEMO_DRAFT}`, { method: 'DELETE', cookie })).code).toBe(-4041407);
	});

	it("answers another channel's draft id with -4041407, and a session of another channel with -4011401", async () => {
		const before = await draftsTable();
		const korean = await signIn(2002, KOREAN);
		// The Korean author asks for their own draft through the global API: no session there.
		expect((await call(`${MEMBER}/drafts/${KOREAN_DRAFT}`, { cookie: korean })).code).toBe(-4011401);
		// A member of both channels gets nothing of the other channel's drafts under either.
		const global = await signIn(1002);
		expect((await call(`${MEMBER}/drafts/${KOREAN_DRAFT}`, { cookie: global })).code).toBe(-4041407);
		expect((await call(`${memberApi(KOREAN)}/drafts/${DEMO_DRAFT}`, { cookie: korean })).code).toBe(-4041407);
		expect(
			(await call(`${memberApi(KOREAN)}/drafts/${DEMO_DRAFT}`, { method: 'PUT', cookie: korean, body: fields({ boardId: BOARDS.koreanGeneral }) }))
				.code,
		).toBe(-4041407);
		expect((await call(`${memberApi(KOREAN)}/drafts/${DEMO_DRAFT}`, { method: 'DELETE', cookie: korean })).code).toBe(-4041407);
		const koreanList = contentOf<{ drafts: { draftId: number }[] }>(await call(`${memberApi(KOREAN)}/drafts`, { cookie: korean }));
		expect(koreanList.drafts.map((draft) => draft.draftId)).toEqual([KOREAN_DRAFT]);
		expect(await draftsTable()).toBe(before);
	});

	it('answers a banned member with the ban on every route, and changes nothing', async () => {
		const before = await draftsTable();
		for (const [memberId, kind] of [
			[1038, 'TEMPORARY'],
			[1039, 'PERMANENT'],
		] as const) {
			const cookie = await signIn(memberId);
			for (const [url, method] of [
				[`${MEMBER}/drafts`, 'GET'],
				[`${MEMBER}/drafts`, 'POST'],
				[`${MEMBER}/drafts/${DEMO_DRAFT}`, 'GET'],
				[`${MEMBER}/drafts/${DEMO_DRAFT}`, 'PUT'],
				[`${MEMBER}/drafts/${DEMO_DRAFT}`, 'DELETE'],
			] as const) {
				const answer = await call(url, { method, cookie, ...(method === 'POST' || method === 'PUT' ? { body: fields() } : {}) });
				expect([answer.status, answer.code]).toEqual([403, -4031452]);
				expect(answer.body['ban']).toMatchObject({ kind });
			}
		}
		expect(await draftsTable()).toBe(before);
	});
});

describe('what a draft request may hold', () => {
	it('refuses malformed draft ids with a 400 envelope', async () => {
		const { cookie } = await newMember();
		for (const id of ['abc', '0', '-1', '1.5', '1e3', '01', '99999999999999999', '%20']) {
			for (const method of ['GET', 'PUT', 'DELETE']) {
				const answer = await call(`${MEMBER}/drafts/${id}`, { method, cookie, ...(method === 'PUT' ? { body: fields() } : {}) });
				expect([id, method, answer.status, answer.code]).toEqual([id, method, 400, -4001400]);
			}
		}
	});

	it('refuses wrong types, missing fields and unknown keys with a 400 that names them, and saves nothing', async () => {
		const { cookie } = await newMember();
		const before = await draftsTable();
		const cases: [string, unknown, RegExp][] = [
			['a board id as a string', { ...fields(), boardId: '12' }, /boardId/],
			['a fractional board id', { ...fields(), boardId: 1.5 }, /boardId/],
			['a negative subject id', { ...fields(), subjectId: -3 }, /subjectId/],
			['a title that is a number', { ...fields(), title: 5 }, /title/],
			['a missing title', { boardId: null, subjectId: null, content: doc('') }, /title/],
			['a body that is HTML', { ...fields(), content: '<p>hello</p>' }, /content/],
			['an unknown block type', { ...fields(), content: { type: 'doc', blocks: [{ type: 'script', children: [] }] } }, /content/],
			['an unknown key', { ...fields(), isNotice: true }, /an unknown field/],
			['an array', [fields()], /body/],
			['null', null, /body/],
		];
		for (const [name, body, message] of cases) {
			const answer = await save(cookie, body);
			expect([name, answer.status, answer.code]).toEqual([name, 400, name === 'a missing title' ? -4001431 : -4001400]);
			expect(answer.body.header.resultMessage).toMatch(message);
		}
		expect((await call(`${MEMBER}/drafts`, { method: 'POST', cookie, body: '{"title":' })).code).toBe(-4001405);
		expect(
			(await call(`${MEMBER}/drafts`, { method: 'POST', cookie, body: 'title=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } }))
				.code,
		).toBe(-4151401);
		expect(await draftsTable()).toBe(before);
	});

	it('refuses unknown query keys and bad pages', async () => {
		const { cookie } = await newMember();
		for (const url of [`${MEMBER}/drafts?page=0`, `${MEMBER}/drafts?page=x`, `${MEMBER}/drafts?sort=old`, `${MEMBER}/drafts/${DEMO_DRAFT}?page=1`]) {
			expect([url, (await call(url, { cookie })).code]).toEqual([url, -4001400]);
		}
		expect((await save(cookie, fields())).code).toBe(0);
		expect((await call(`${MEMBER}/drafts?x=1`, { method: 'POST', cookie, body: fields() })).code).toBe(-4001400);
	});

	it('refuses a body over 512 KB with -4131401 before reading it', async () => {
		const { cookie } = await newMember();
		const before = await draftsTable();
		const huge = JSON.stringify(fields({ content: doc('x'.repeat(9_000)) })).replace('"A draft"', `"${'y'.repeat(600 * 1024)}"`);
		expect((await call(`${MEMBER}/drafts`, { method: 'POST', cookie, body: huge })).code).toBe(-4131401);
		expect((await call(`${MEMBER}/drafts/${DEMO_DRAFT}`, { method: 'PUT', cookie, body: huge })).code).toBe(-4131401);
		// Under the limit, a long document is a draft like any other.
		const long = fields({ content: { type: 'doc', blocks: Array.from({ length: 40 }, () => doc('z'.repeat(9_000)).blocks[0]!) } });
		expect((await save(cookie, long)).code).toBe(0);
		expect(await draftsTable()).not.toBe(before);
	});

	it('answers a wrong method with 405', async () => {
		const { cookie } = await newMember();
		for (const [url, method] of [
			[`${MEMBER}/drafts`, 'PUT'],
			[`${MEMBER}/drafts`, 'PATCH'],
			[`${MEMBER}/drafts`, 'DELETE'],
			[`${MEMBER}/drafts/${DEMO_DRAFT}`, 'POST'],
			[`${MEMBER}/drafts/${DEMO_DRAFT}`, 'PATCH'],
		] as const) {
			const answer = await call(url, { method, cookie, body: fields() });
			expect([url, method, answer.status, answer.code]).toEqual([url, method, 405, -4051401]);
		}
	});

	it('takes a title of up to 100 characters, counted as a person counts them', async () => {
		const { cookie } = await newMember();
		expect(TITLE_MAX_LENGTH).toBe(100);
		// 100 emoji are 200 UTF-16 units and still 100 characters.
		expect((await save(cookie, fields({ title: '🚀'.repeat(TITLE_MAX_LENGTH) }))).code).toBe(0);
		const before = await draftsTable();
		const refused = await save(cookie, fields({ title: '가'.repeat(TITLE_MAX_LENGTH + 1) }));
		expect([refused.status, refused.code, refused.body.header.resultMessage]).toEqual([400, -4001432, 'The title can be up to 100 characters long.']);
		expect(await draftsTable()).toBe(before);
	});

	it('keeps an empty draft: no board, no title, no content', async () => {
		const { cookie } = await newMember();
		const saved = await save(cookie, { boardId: null, subjectId: null, title: '', content: { type: 'doc', blocks: [] } });
		expect(saved.code).toBe(0);
		const { draftId } = contentOf<{ draftId: number }>(saved);
		expect(contentOf<unknown>(await call(`${MEMBER}/drafts/${draftId}`, { cookie }))).toMatchObject({
			boardId: null,
			subjectId: null,
			title: '',
			content: { type: 'doc', blocks: [] },
		});
	});

	it('checks the board and category a draft names', async () => {
		const { cookie } = await newMember();
		const before = await draftsTable();
		const cases: [string, Partial<DraftFields>, RegExp][] = [
			['a board of another channel', { boardId: BOARDS.koreanGeneral }, /boardId is not a board of this community/],
			['a board that does not exist', { boardId: 999_999 }, /boardId is not a board of this community/],
			['the private board', { boardId: BOARDS.staff }, /boardId is a board you cannot write in/],
			['the notice-only board', { boardId: BOARDS.notice }, /boardId is a board you cannot write in/],
			['a category of another board', { boardId: BOARDS.general, subjectId: BUGS_SUBJECT }, /subjectId is not a category of that board/],
			['a category that does not exist', { boardId: BOARDS.general, subjectId: 999_999 }, /subjectId is not a category of that board/],
			['a category without a board', { boardId: null, subjectId: GENERAL_SUBJECT }, /subjectId needs a boardId/],
		];
		for (const [name, overrides, message] of cases) {
			const answer = await save(cookie, fields(overrides));
			expect([name, answer.status, answer.code]).toEqual([name, 400, -4001400]);
			expect(answer.body.header.resultMessage).toMatch(message);
		}
		expect(await draftsTable()).toBe(before);
		expect((await save(cookie, fields({ boardId: BOARDS.general, subjectId: GENERAL_SUBJECT }))).code).toBe(0);
		expect((await save(cookie, fields({ boardId: BOARDS.bugs, subjectId: null }))).code).toBe(0);
		// Loosely: a category disabled since the editor loaded is kept (submitting the post says so).
		await env.DB.prepare('UPDATE board_subjects SET enabled = 0 WHERE id = ?1')
			.bind(GENERAL_SUBJECT + 3)
			.run();
		expect((await save(cookie, fields({ boardId: BOARDS.general, subjectId: GENERAL_SUBJECT + 3 }))).code).toBe(0);
	});

	it('lets an administrator draft for the notice-only and the private board', async () => {
		const cookie = await signIn(ADMIN_ID);
		expect((await save(cookie, fields({ boardId: BOARDS.notice }))).code).toBe(0);
		expect((await save(cookie, fields({ boardId: BOARDS.staff }))).code).toBe(0);
	});

	it('checks the board and category on overwrite too, and leaves the draft as it was', async () => {
		const { cookie } = await newMember();
		const { draftId } = contentOf<{ draftId: number }>(await save(cookie, fields({ title: 'kept' })));
		const before = await draftsTable();
		expect((await call(`${MEMBER}/drafts/${draftId}`, { method: 'PUT', cookie, body: fields({ boardId: BOARDS.staff }) })).code).toBe(-4001400);
		expect((await call(`${MEMBER}/drafts/${draftId}`, { method: 'PUT', cookie, body: fields({ title: 'x'.repeat(101) }) })).code).toBe(-4001432);
		expect(await draftsTable()).toBe(before);
	});

	it('stores only what the document schema keeps', async () => {
		const { cookie } = await newMember();
		const body = fields({
			content: {
				type: 'doc',
				blocks: [{ type: 'paragraph', children: [{ text: 'hi', bold: true, onclick: 'alert(1)' }], style: 'x' }],
				extra: 1,
			} as unknown as ContentDocument,
		});
		const { draftId } = contentOf<{ draftId: number }>(await save(cookie, body));
		const row = await env.DB.prepare('SELECT content FROM drafts WHERE id = ?1').bind(draftId).first<{ content: string }>();
		expect(JSON.parse(row?.content ?? '')).toEqual({ type: 'doc', blocks: [{ type: 'paragraph', children: [{ text: 'hi', bold: true }] }] });
	});
});

describe('saving, overwriting, listing and deleting', () => {
	it('saves, loads, overwrites and deletes a draft', async () => {
		const { cookie } = await newMember();
		const saved = await save(cookie, fields({ title: 'first', subjectId: GENERAL_SUBJECT, content: doc('one') }));
		expect(saved.code).toBe(0);
		const { draftId, updatedAt } = contentOf<{ draftId: number; updatedAt: number }>(saved);
		expect(Object.keys(contentOf<object>(saved)).sort()).toEqual(['draftId', 'updatedAt']);
		const loaded = contentOf<unknown>(await call(`${MEMBER}/drafts/${draftId}`, { cookie }));
		expect(loaded).toEqual({ draftId, boardId: BOARDS.general, subjectId: GENERAL_SUBJECT, title: 'first', content: doc('one'), updatedAt });

		const overwritten = await call(`${MEMBER}/drafts/${draftId}`, {
			method: 'PUT',
			cookie,
			body: { boardId: null, subjectId: null, title: 'second', content: doc('two') },
		});
		expect(overwritten.code).toBe(0);
		const second = contentOf<{ draftId: number; updatedAt: number }>(overwritten);
		expect(second.draftId).toBe(draftId);
		expect(second.updatedAt).toBeGreaterThanOrEqual(updatedAt);
		expect(contentOf<unknown>(await call(`${MEMBER}/drafts/${draftId}`, { cookie }))).toEqual({
			draftId,
			boardId: null,
			subjectId: null,
			title: 'second',
			content: doc('two'),
			updatedAt: second.updatedAt,
		});

		const deleted = await call(`${MEMBER}/drafts/${draftId}`, { method: 'DELETE', cookie });
		expect([deleted.status, deleted.code, deleted.body['content']]).toEqual([200, 0, {}]);
		expect((await call(`${MEMBER}/drafts/${draftId}`, { cookie })).code).toBe(-4041407);
		expect((await call(`${MEMBER}/drafts/${draftId}`, { method: 'DELETE', cookie })).code).toBe(-4041407);
		expect((await call(`${MEMBER}/drafts/${draftId}`, { method: 'PUT', cookie, body: fields() })).code).toBe(-4041407);
	});

	it('lists newest-updated first, a page at a time, with the total count', async () => {
		const { cookie, userId } = await newMember();
		await plantDrafts(userId, 45);
		const page = async (n: number) =>
			contentOf<{ drafts: { title: string; draftId: number }[]; totalCount: number; page: number; pageSize: number; totalPages: number }>(
				await call(`${MEMBER}/drafts?page=${n}`, { cookie }),
			);
		const first = await page(1);
		expect({ ...first, drafts: first.drafts.length }).toEqual({ drafts: PAGE_SIZE, totalCount: 45, page: 1, pageSize: PAGE_SIZE, totalPages: 3 });
		expect(first.drafts[0]?.title).toBe('planted 44');
		const third = await page(3);
		expect(third.drafts.map((draft) => draft.title)).toEqual(['planted 4', 'planted 3', 'planted 2', 'planted 1', 'planted 0']);
		expect((await page(4)).drafts).toEqual([]);
		expect(contentOf<{ page: number }>(await call(`${MEMBER}/drafts`, { cookie })).page).toBe(1);
		// Overwriting a draft moves it to the top.
		const oldest = third.drafts.at(-1)?.draftId;
		await call(`${MEMBER}/drafts/${oldest}`, { method: 'PUT', cookie, body: fields({ title: 'touched' }) });
		expect((await page(1)).drafts[0]).toMatchObject({ draftId: oldest, title: 'touched', boardId: BOARDS.general, subjectId: null });
		expect(Object.keys((await page(1)).drafts[0] ?? {}).sort()).toEqual(['boardId', 'draftId', 'subjectId', 'title', 'updatedAt']);
	});

	it("lists nobody else's drafts", async () => {
		const { cookie } = await newMember();
		expect(contentOf<unknown>(await call(`${MEMBER}/drafts`, { cookie }))).toEqual({
			drafts: [],
			totalCount: 0,
			page: 1,
			pageSize: PAGE_SIZE,
			totalPages: 1,
		});
	});
});

describe('the limit of drafts per member', () => {
	it('matches DRAFT_LIMIT in the trigger of migration 0006', () => {
		expect(DRAFT_LIMIT).toBe(100);
		expect(/\)\s*>=\s*(\d+)\s*BEGIN/.exec(migration0006)?.[1]).toBe(String(DRAFT_LIMIT));
	});

	it('refuses one more draft with -4091441, writes nothing, and takes one again after a delete', async () => {
		const { cookie, userId } = await newMember();
		await plantDrafts(userId, DRAFT_LIMIT - 1);
		const last = await save(cookie);
		expect(last.code).toBe(0);
		const before = await draftsTable();
		const refused = await save(cookie);
		expect([refused.status, refused.code, refused.body.header.resultMessage]).toEqual([
			409,
			-4091441,
			'You can keep up to 100 drafts. Delete one to save another.',
		]);
		expect(await draftsTable()).toBe(before);
		// Overwriting one of the hundred is not a new draft.
		const { draftId } = contentOf<{ draftId: number }>(last);
		expect((await call(`${MEMBER}/drafts/${draftId}`, { method: 'PUT', cookie, body: fields({ title: 'still fine' }) })).code).toBe(0);
		expect((await call(`${MEMBER}/drafts/${draftId}`, { method: 'DELETE', cookie })).code).toBe(0);
		expect((await save(cookie)).code).toBe(0);
		// Another member is not held back by this one's drafts.
		expect((await save((await newMember()).cookie)).code).toBe(0);
	});

	it('counts per channel: drafts of another community do not count', async () => {
		const { userId } = await newMember();
		await plantDrafts(userId, DRAFT_LIMIT, KOREAN.id);
		expect((await createDraft(env.DB, GLOBAL.id, { memberId: userId, admin: false }, fields())).draftId).toBeGreaterThan(0);
	});

	it('holds under racing saves: of five saves for the last place, one is kept', async () => {
		const { cookie, userId } = await newMember();
		await plantDrafts(userId, DRAFT_LIMIT - 1);
		const answers = await Promise.all(Array.from({ length: 5 }, () => save(cookie)));
		expect(answers.map((answer) => answer.code).sort()).toEqual([-4091441, -4091441, -4091441, -4091441, 0]);
		const count = await env.DB.prepare('SELECT count(*) AS count FROM drafts WHERE member_id = ?1').bind(userId).first<number>('count');
		expect(count).toBe(DRAFT_LIMIT);
	});

	it('runs statements batched with a save only when the draft is kept, naming the new draft', async () => {
		const { userId } = await newMember();
		await env.DB.exec('CREATE TABLE IF NOT EXISTS batch_probe (member_id INTEGER, draft_id INTEGER)');
		const writer = { memberId: userId, admin: false };
		const probe = (target: { draftId: number | 'last-inserted' }) => [
			env.DB.prepare(
				`INSERT INTO batch_probe (member_id, draft_id) VALUES (?1, ${target.draftId === 'last-inserted' ? 'last_insert_rowid()' : '?2'})`,
			).bind(userId, ...(target.draftId === 'last-inserted' ? [] : [target.draftId])),
		];
		const probes = async () =>
			(
				await env.DB.prepare('SELECT draft_id FROM batch_probe WHERE member_id = ?1 ORDER BY rowid').bind(userId).all<{ draft_id: number }>()
			).results.map((row) => row.draft_id);

		const created = await createDraft(env.DB, GLOBAL.id, writer, fields(), probe);
		expect(await probes()).toEqual([created.draftId]);
		await updateDraft(env.DB, GLOBAL.id, writer, created.draftId, fields({ title: 'again' }), probe);
		expect(await probes()).toEqual([created.draftId, created.draftId]);
		// Not the member's draft: nothing runs.
		await expect(updateDraft(env.DB, GLOBAL.id, writer, DEMO_DRAFT, fields(), probe)).rejects.toMatchObject({ codeName: 'DraftNotFound' });
		await plantDrafts(userId, DRAFT_LIMIT - 1);
		await expect(createDraft(env.DB, GLOBAL.id, writer, fields(), probe)).rejects.toMatchObject({ codeName: 'DraftLimitReached' });
		expect(await probes()).toEqual([created.draftId, created.draftId]);
	});
});

describe('publishing a draft', () => {
	const publish = (cookie: string, body: Record<string, unknown>) =>
		call(`${MEMBER}/posts`, {
			method: 'POST',
			cookie,
			body: {
				boardId: BOARDS.general,
				subjectId: null,
				title: 'From a draft',
				content: doc('Finished at last'),
				isPrivate: false,
				isNotice: false,
				requestId: crypto.randomUUID(),
				...body,
			},
		});
	const postCount = async () => (await env.DB.prepare('SELECT count(*) AS n FROM posts').first<number>('n'))!;

	it('deletes the draft the post was written from, in the same batch, keeping its images for the post', async () => {
		const { cookie, userId } = await newMember();
		const upload = await storeUpload(env.DB, env.UPLOADS, GLOBAL.id, userId, images.PNG, Date.now());
		const key = uploadKeyOf(upload.src) ?? '';
		const content = {
			type: 'doc',
			blocks: [
				{ type: 'paragraph', children: [{ text: 'With a picture' }] },
				{ type: 'image', src: upload.src, alt: '' },
			],
		};
		const saved = contentOf<{ draftId: number }>(await save(cookie, fields({ content: content as ContentDocument })));
		expect(contentOf<{ totalCount: number }>(await call(`${MEMBER}/drafts`, { cookie })).totalCount).toBe(1);

		const published = await publish(cookie, { content, draftId: saved.draftId });
		expect(published.code, JSON.stringify(published.body)).toBe(0);
		const { postId } = contentOf<{ postId: number }>(published);
		expect((await call(`${MEMBER}/drafts/${saved.draftId}`, { cookie })).code).toBe(-4041407);
		expect(contentOf<{ totalCount: number }>(await call(`${MEMBER}/drafts`, { cookie })).totalCount).toBe(0);
		expect(await env.DB.prepare('SELECT post_id, draft_id FROM uploads WHERE r2_key = ?1').bind(key).first()).toEqual({
			post_id: postId,
			draft_id: null,
		});
		expect(await env.UPLOADS.head(key)).not.toBeNull();
	});

	it("refuses another member's, another channel's or a missing draft with -4041407, creating no post and deleting nothing", async () => {
		const { cookie } = await newMember();
		const other = await newMember();
		const theirs = contentOf<{ draftId: number }>(await save(other.cookie)).draftId;
		const before = [await postCount(), await draftsTable()];
		// Another member's new draft, the demo member's, a draft of /starfall/kr, and one that does not exist.
		for (const draftId of [theirs, DEMO_DRAFT, KOREAN_DRAFT, 2 ** 31 - 1]) {
			const refused = await publish(cookie, { draftId });
			expect([refused.status, refused.code], String(draftId)).toEqual([404, -4041407]);
		}
		expect([await postCount(), await draftsTable()]).toEqual(before);
	});

	it('refuses a draftId that is not an id, in the envelope', async () => {
		const { cookie } = await newMember();
		const before = [await postCount(), await draftsTable()];
		for (const draftId of ['101', 0, -1, 1.5, null, 2 ** 53, {}]) {
			const refused = await publish(cookie, { draftId });
			expect([refused.status, refused.body['header']], JSON.stringify(draftId)).toEqual([400, expect.objectContaining({ isSuccessful: false })]);
		}
		expect([await postCount(), await draftsTable()]).toEqual(before);
	});

	it('writes, for the draft, its row and index entry and each upload it kept (at most 50): at most 2 + 3 per upload', async () => {
		const { userId } = await newMember();
		const writer: SessionMember = { userId, nickname: 'Publisher', role: 'MEMBER', provider: 'GOOGLE', recentProvider: 'GOOGLE', joinedAt: 0 };
		const kept = 3;
		const uploads = await Promise.all(
			Array.from({ length: kept }, () => storeUpload(env.DB, env.UPLOADS, GLOBAL.id, userId, images.PNG, Date.now())),
		);
		const content = {
			type: 'doc',
			blocks: [{ type: 'paragraph', children: [{ text: 'pictures' }] }, ...uploads.map((upload) => ({ type: 'image', src: upload.src, alt: '' }))],
		} as ContentDocument;
		const { draftId } = await createDraft(env.DB, GLOBAL.id, { memberId: userId, admin: false }, fields({ content }));
		await env.DB.batch(claimUploadsStatements(env.DB, GLOBAL.id, uploadKeysOf(content), { draftId }));
		expect(await env.DB.prepare('SELECT count(*) AS n FROM uploads WHERE draft_id = ?1').bind(draftId).first('n')).toBe(kept);
		// Other members' uploads, so that a scan of the table would show in the rows read (a day apart, as the upload quota lets a member leave them).
		const others = Array.from({ length: 100 }, (_, i) =>
			env.DB.prepare(
				"INSERT INTO uploads (channel_id, member_id, r2_key, content_type, size, created_at) VALUES (1, 1002, ?1, 'image/png', 1, ?2)",
			).bind(`publish-other-${crypto.randomUUID()}-${i}.png`, i * 86_400_001),
		);
		await env.DB.batch(others);
		const { db, statements } = recordingDb();
		// The post leaves the pictures out: the draft's deletion releases them (the cleanup removes them a day on).
		await createPost(
			db,
			GLOBAL.id,
			writer,
			{
				boardId: BOARDS.general,
				subjectId: null,
				title: 't',
				content: doc('no pictures after all'),
				isPrivate: false,
				isNotice: false,
				requestId: crypto.randomUUID(),
				draftId,
			},
			Date.now(),
		);
		const forDraft = statements.filter((statement) => /\bdrafts\b/.test(statement.sql));
		expect(forDraft.map((statement) => statement.sql.split(' ')[0])).toEqual(['SELECT', 'DELETE']);
		const written = forDraft.reduce((sum, statement) => sum + statement.rowsWritten, 0);
		const read = forDraft.reduce((sum, statement) => sum + statement.rowsRead, 0);
		expect(written).toBeGreaterThanOrEqual(2);
		// Each released upload: its row, and its entries in the draft's and the unattached uploads' indexes;
		// the foreign key's ON DELETE SET NULL finds them through uploads_by_draft, never a scan.
		expect(written).toBeLessThanOrEqual(2 + 3 * kept);
		expect(read).toBeLessThanOrEqual(4 + 5 * kept);
		expect(
			await env.DB.prepare('SELECT count(*) AS n FROM uploads WHERE draft_id IS NULL AND post_id IS NULL AND member_id = ?1').bind(userId).first('n'),
		).toBe(kept);
	});
});

describe('what each action costs', () => {
	it('writes one row (and its index entries) per save, overwrite and delete, and reads a bounded number', async () => {
		const { userId } = await newMember();
		await plantDrafts(userId, DRAFT_LIMIT - 2);
		const writer = { memberId: userId, admin: false };
		const cost = async (action: (db: Db) => Promise<unknown>) => {
			const { db, statements } = recordingDb();
			await action(db);
			return { read: statements.reduce((sum, s) => sum + s.rowsRead, 0), written: statements.reduce((sum, s) => sum + s.rowsWritten, 0) };
		};
		// D1 counts a row and each index entry it changes: the drafts row, drafts_by_member.
		const created = await cost(async (db) => createDraft(db, GLOBAL.id, writer, fields({ subjectId: GENERAL_SUBJECT })));
		expect(created.written).toBeLessThanOrEqual(2);
		// The board check, the trigger's count over the member's index entries (at most DRAFT_LIMIT) and the new id.
		expect(created.read).toBeLessThanOrEqual(DRAFT_LIMIT + 5 + NEW_ID_ROWS_READ);
		const { draftId } = (await listDrafts(env.DB, GLOBAL.id, userId, 1)).drafts[0]!;
		const updated = await cost((db) => updateDraft(db, GLOBAL.id, writer, draftId, fields({ title: 'cheap' })));
		expect(updated.written).toBeLessThanOrEqual(3);
		expect(updated.read).toBeLessThanOrEqual(5);
		const listed = await cost((db) => listDrafts(db, GLOBAL.id, userId, 5));
		expect(listed.written).toBe(0);
		// The page's rows (after skipping the pages before it) and the count, all within the member's entries.
		expect(listed.read).toBeLessThanOrEqual(2 * DRAFT_LIMIT + 2);
		const loaded = await cost((db) => getDraft(db, GLOBAL.id, userId, draftId));
		expect(loaded).toEqual({ read: 1, written: 0 });
		const deleted = await cost((db) => deleteDraft(db, GLOBAL.id, userId, draftId));
		expect(deleted.written).toBeLessThanOrEqual(2);
		// The row, and the uploads it kept (the foreign key's ON DELETE SET NULL looks them up by index).
		expect(deleted.read).toBeLessThanOrEqual(2);
	});

	it('limits drafts requests per member, reads included', async () => {
		const { cookie } = await newMember();
		const { limit } = LIMITERS.RATE_LIMIT_WRITE;
		await startOfRateWindow();
		for (let i = 0; i < limit; i += 1) {
			const answer = await call(`${MEMBER}/drafts`, { cookie, headers: { 'cf-connecting-ip': `198.51.100.${i}` } });
			expect(answer.code).toBe(0);
		}
		const refused = await call(`${MEMBER}/drafts`, { method: 'POST', cookie, body: fields(), headers: { 'cf-connecting-ip': '198.51.100.250' } });
		expect([refused.status, refused.code]).toEqual([429, -4291401]);
	});
});
