/**
 * Avatars (docs/reference/avatars.md) inside workerd, on the real local D1 and R2: a member sets,
 * replaces and removes their picture through the API, an administrator removes one (audited), the
 * export lists it and withdrawal deletes it; every bad input is refused with its code and writes
 * nothing; the day's limit counts in the row's own UPSERT; the rows written per change are bounded;
 * and the stable URL answers the picture, or the generated pattern, with a minute's caching and
 * without moving any page's version.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { env } from 'cloudflare:workers';
import { api } from '@functions/api/app';
import { serveAvatarFile, AVATAR_CACHE_CONTROL } from '@functions/shell/avatar-files';
import { avatarKey, storeAvatar, removeAvatarAsAdministrator } from '@/server/members/avatars';
import { AVATAR_UPLOADS_PER_DAY, generatedAvatarSvg } from '@/lib/avatars';
import { AppError, ResultCodes } from '@/server/platform/errors';
import { NEW_ID_ROWS_READ } from '@/server/databases/ids';
import { call, GLOBAL, KOREAN, memberApi, ORIGIN, plainMembers, rowCost, signIn } from './harness';
import * as images from '../fixtures/images';

const ADMIN = 1001;
const SITE = 'http://localhost';
let members: number[] = [];

beforeAll(async () => {
	members = (await plainMembers(GLOBAL.id, 12)).map((member) => member.id);
	expect(members.length).toBe(12);
});

const WEBP_256 = images.withSize('webp-lossy', 256, 256);
const JPEG_96 = images.withSize('jpeg', 96, 96);

/** PUTs `bytes` as one size of the avatar, as My Page's crop does (raw bytes with their type). */
async function sendAvatar(query: string, bytes: BodyInit, cookie?: string, type = 'image/webp') {
	const response = await api.request(`${memberApi()}/me/avatar${query}`, {
		method: 'PUT',
		headers: {
			origin: ORIGIN,
			'content-type': type,
			'cf-connecting-ip': `avatars:${expect.getState().currentTestName}`,
			...(cookie ? { cookie } : {}),
		},
		body: bytes,
	});
	const json = (await response.json()) as { header: { resultCode: number }; content?: { size: number; bytes: number; contentType: string } };
	return { status: response.status, code: json.header.resultCode, content: json.content };
}

/** The stable URL's answer, as a browser asks it. */
async function served(memberId: number, query = '?s=96', init: RequestInit = {}): Promise<Response> {
	const response = await serveAvatarFile(new Request(`${SITE}/starfall/global/avatars/${memberId}${query}`, init), env.UPLOADS);
	if (!response) throw new Error('Not an avatar path');
	return response;
}

async function avatarRow(memberId: number) {
	return env.DB.prepare('SELECT sizes, day_changes FROM member_avatars WHERE member_id = ?1')
		.bind(memberId)
		.first<{ sizes: number; day_changes: number }>();
}

async function memberObjects(memberId: number): Promise<string[]> {
	const listed = await env.UPLOADS.list({ prefix: `avatars/starfall/global/${memberId}/` });
	return listed.objects.map((object) => object.key).sort();
}

const contentVersion = async () => env.DB.prepare('SELECT content_version FROM channels WHERE id = 1').first<number>('content_version');

describe('a member sets, replaces and removes their avatar', () => {
	it('stores each size under the member’s key, serves it from the stable URL for a minute, and moves no page version', async () => {
		const member = members[0]!;
		const cookie = await signIn(member);
		const versionBefore = await contentVersion();
		expect(await sendAvatar('?size=256', WEBP_256, cookie)).toMatchObject({
			status: 200,
			code: 0,
			content: { size: 256, contentType: 'image/webp' },
		});
		expect(await sendAvatar('?size=96', JPEG_96, cookie, 'image/jpeg')).toMatchObject({
			status: 200,
			code: 0,
			content: { size: 96, contentType: 'image/jpeg' },
		});
		expect(await memberObjects(member)).toEqual([avatarKey(GLOBAL, member, 256), avatarKey(GLOBAL, member, 96)].sort());
		expect(await avatarRow(member)).toEqual({ sizes: 3, day_changes: 2 });
		expect(await contentVersion()).toBe(versionBefore);

		const small = await served(member, '?s=96');
		expect(small.status).toBe(200);
		expect(small.headers.get('Content-Type')).toBe('image/jpeg');
		expect(small.headers.get('Cache-Control')).toBe('public, max-age=60');
		expect(AVATAR_CACHE_CONTROL).toBe('public, max-age=60');
		expect(small.headers.get('X-Content-Type-Options')).toBe('nosniff');
		const etag = small.headers.get('ETag');
		expect(new Uint8Array(await small.arrayBuffer()).length).toBe(JPEG_96.length);
		const large = await served(member, '?s=256');
		expect(large.headers.get('Content-Type')).toBe('image/webp');
		await large.arrayBuffer();
		// A browser's revalidation after the minute: 304 while the picture is the same.
		const again = await served(member, '?s=96', { headers: { 'If-None-Match': etag ?? '' } });
		expect(again.status).toBe(304);
	});

	it('a change overwrites the same objects: one object per size, whatever the member does', async () => {
		const member = members[1]!;
		const cookie = await signIn(member);
		for (let i = 0; i < 3; i += 1) expect((await sendAvatar('?size=256', WEBP_256, cookie)).code).toBe(0);
		expect(await memberObjects(member)).toEqual([avatarKey(GLOBAL, member, 256)]);
		expect(await avatarRow(member)).toEqual({ sizes: 2, day_changes: 3 });
	});

	it('removing it deletes the objects, keeps the day’s count, and the stable URL answers the generated pattern again', async () => {
		const member = members[2]!;
		const cookie = await signIn(member);
		await sendAvatar('?size=256', WEBP_256, cookie);
		await sendAvatar('?size=96', JPEG_96, cookie, 'image/jpeg');
		const versionBefore = await contentVersion();
		expect((await call(`${memberApi()}/me/avatar`, { method: 'DELETE', cookie })).code).toBe(0);
		expect(await memberObjects(member)).toEqual([]);
		expect(await avatarRow(member)).toEqual({ sizes: 0, day_changes: 2 });
		expect(await contentVersion()).toBe(versionBefore);
		const answer = await served(member, '?s=256');
		expect(answer.headers.get('Content-Type')).toBe('image/svg+xml');
		expect(answer.headers.get('Cache-Control')).toBe('public, max-age=60');
		expect(await answer.text()).toBe(generatedAvatarSvg(member));
	});
});

describe('the generated avatar', () => {
	it('is the same pattern for a member every time, another for another member, with no object read beyond the one miss', async () => {
		expect(generatedAvatarSvg(1004)).toBe(generatedAvatarSvg(1004));
		expect(generatedAvatarSvg(1004)).not.toBe(generatedAvatarSvg(1005));
		const answer = await served(999_999, '?s=96');
		expect(answer.status).toBe(200);
		expect(await answer.text()).toBe(generatedAvatarSvg(999_999));
	});

	it.each([
		['an unknown size', '/starfall/global/avatars/1004?s=128', 404],
		['a query beside the size', '/starfall/global/avatars/1004?s=96&x=1', 404],
	])('refuses %s', async (_what, path, status) => {
		const answer = await serveAvatarFile(new Request(`${SITE}${path}`), env.UPLOADS);
		expect(answer?.status).toBe(status);
	});

	it('leaves every other path to the pages (a reserved first segment, a member id that is no id, a longer path)', async () => {
		for (const path of [
			'/admin/v1/avatars/5',
			'/starfall/global/avatars/0',
			'/starfall/global/avatars/x',
			'/starfall/global/avatars/5/6',
			'/starfall/global/posts/5',
		]) {
			expect(await serveAvatarFile(new Request(`${SITE}${path}`), env.UPLOADS), path).toBeNull();
		}
	});
});

describe('bad input: a catalogue code, nothing written', () => {
	it.each([
		['a PNG', '?size=256', images.withSize('png', 256, 256), 'InvalidAvatar'],
		['a GIF', '?size=96', images.withSize('gif', 96, 96), 'InvalidAvatar'],
		['a picture that is not square', '?size=256', images.withSize('webp-lossy', 256, 200), 'InvalidAvatar'],
		['a size other than the one named', '?size=256', JPEG_96, 'InvalidAvatar'],
		['HTML', '?size=96', images.HTML_AS_PNG, 'InvalidAvatar'],
		['an empty body', '?size=96', new Uint8Array(0), 'InvalidAvatar'],
		['a truncated WebP', '?size=256', WEBP_256.subarray(0, 30), 'InvalidAvatar'],
		['too many pixels', '?size=256', images.withSize('webp-lossy', 12_000, 12_000), 'ImageResolutionTooHigh'],
		['more than 64 KB', '?size=256', new Uint8Array(64 * 1024 + 1), 'PayloadTooLarge'],
		['no size', '', WEBP_256, 'InvalidParameter'],
		['a size not stored', '?size=128', WEBP_256, 'InvalidParameter'],
	])('%s', async (_what, query, bytes, name) => {
		const member = members[3]!;
		const cookie = await signIn(member);
		const rowsBefore = await env.DB.prepare('SELECT count(*) AS n FROM member_avatars').first<number>('n');
		const answer = await sendAvatar(query, bytes, cookie);
		expect(answer.code).toBe(ResultCodes[name as keyof typeof ResultCodes].code);
		expect(await env.DB.prepare('SELECT count(*) AS n FROM member_avatars').first<number>('n')).toBe(rowsBefore);
		expect(await memberObjects(member)).toEqual([]);
	});

	it('a guest is asked to sign in, and another member’s id cannot be named: the route is the member’s own', async () => {
		expect((await sendAvatar('?size=256', WEBP_256)).code).toBe(-4011401);
		expect((await sendAvatar(`?size=256&userId=${members[4]}`, WEBP_256, await signIn(members[3]!))).code).toBe(ResultCodes.InvalidParameter.code);
		expect(await memberObjects(members[4]!)).toEqual([]);
	});
});

describe('the day’s limit, counted in the row’s own UPSERT', () => {
	it(`takes ${AVATAR_UPLOADS_PER_DAY} sizes in 24 hours, refuses the next without writing, and starts again a day after the first`, async () => {
		const member = members[5]!;
		const now = 1_900_000_000_000;
		await env.DB.prepare(
			'INSERT INTO member_avatars (member_id, channel_id, sizes, updated_at, day_started_at, day_changes) VALUES (?1, 1, 2, ?2, ?2, ?3)',
		)
			.bind(member, now - 1000, AVATAR_UPLOADS_PER_DAY - 1)
			.run();
		await storeAvatar(env.DB, env.UPLOADS, GLOBAL, member, 256, WEBP_256, now);
		expect(await avatarRow(member)).toEqual({ sizes: 2, day_changes: AVATAR_UPLOADS_PER_DAY });
		await env.UPLOADS.delete(avatarKey(GLOBAL, member, 256));
		const refused = await storeAvatar(env.DB, env.UPLOADS, GLOBAL, member, 96, JPEG_96, now + 1000).catch((error: unknown) => error);
		expect(refused instanceof AppError && refused.codeName).toBe('AvatarDailyLimitReached');
		expect(await avatarRow(member)).toEqual({ sizes: 2, day_changes: AVATAR_UPLOADS_PER_DAY });
		expect(await memberObjects(member)).toEqual([]);
		// 24 hours after the day's first upload, a new day starts with this one.
		await storeAvatar(env.DB, env.UPLOADS, GLOBAL, member, 96, JPEG_96, now - 1000 + 24 * 60 * 60 * 1000);
		expect(await avatarRow(member)).toEqual({ sizes: 3, day_changes: 1 });
	});

	it('the API answers the limit with its code', async () => {
		const member = members[6]!;
		await env.DB.prepare(
			'INSERT INTO member_avatars (member_id, channel_id, sizes, updated_at, day_started_at, day_changes) VALUES (?1, 1, 0, ?2, ?2, ?3)',
		)
			.bind(member, Date.now(), AVATAR_UPLOADS_PER_DAY)
			.run();
		expect((await sendAvatar('?size=256', WEBP_256, await signIn(member))).code).toBe(-4291493);
		expect(await memberObjects(member)).toEqual([]);
	});

	it('racing uploads at the limit: one is taken, the other refused', async () => {
		const member = members[7]!;
		const now = 1_900_000_000_000;
		await env.DB.prepare(
			'INSERT INTO member_avatars (member_id, channel_id, sizes, updated_at, day_started_at, day_changes) VALUES (?1, 1, 0, ?2, ?2, ?3)',
		)
			.bind(member, now, AVATAR_UPLOADS_PER_DAY - 1)
			.run();
		const outcomes = await Promise.allSettled([
			storeAvatar(env.DB, env.UPLOADS, GLOBAL, member, 256, WEBP_256, now + 1),
			storeAvatar(env.DB, env.UPLOADS, GLOBAL, member, 96, JPEG_96, now + 2),
		]);
		expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
		expect((await avatarRow(member))?.day_changes).toBe(AVATAR_UPLOADS_PER_DAY);
	});
});

describe('rows written per change', () => {
	// Measured: the first size 1 written and 4 read (the foreign keys' checks), a change 1 and 2, an administrator's removal 3 and 6, and the moderation log's new id three more
	// (NEW_ID_ROWS_READ: its database's range, src/server/databases/ids.ts).
	it('a size set writes at most two rows, a removal by an administrator at most three (the avatar’s, the log’s and its index’s)', async () => {
		const member = members[8]!;
		const now = 1_900_000_000_000;
		const set = await rowCost((db) => storeAvatar(db, env.UPLOADS, GLOBAL, member, 256, WEBP_256, now));
		const again = await rowCost((db) => storeAvatar(db, env.UPLOADS, GLOBAL, member, 256, WEBP_256, now + 1));
		const removed = await rowCost((db) => removeAvatarAsAdministrator(db, env.UPLOADS, GLOBAL, ADMIN, member, '', now + 2));
		expect(set).toEqual({ written: 1, read: expect.any(Number) });
		expect(set.read).toBeLessThanOrEqual(4);
		expect(again.written).toBeLessThanOrEqual(2);
		expect(again.read).toBeLessThanOrEqual(4);
		expect(removed.written).toBeLessThanOrEqual(3);
		expect(removed.read).toBeLessThanOrEqual(8 + NEW_ID_ROWS_READ);
	});
});

describe('an administrator removes a member’s avatar', () => {
	it('deletes it and writes REMOVE_AVATAR to the moderation log, once: a second removal finds nothing to log', async () => {
		const member = members[9]!;
		const cookie = await signIn(member);
		await sendAvatar('?size=256', WEBP_256, cookie);
		const admin = await signIn(ADMIN);
		const url = `${ORIGIN}/admin/v1/starfall/global/members/${member}/avatar/remove`;
		const first = await call(url, { method: 'POST', cookie: admin, body: { reason: 'Not suitable' } });
		expect(first).toMatchObject({ status: 200, code: 0 });
		expect(first.body['content']).toEqual({ removed: true });
		expect(await memberObjects(member)).toEqual([]);
		const log = await env.DB.prepare(
			"SELECT moderator_id, target_type, target_id, reason FROM moderation_log WHERE action = 'REMOVE_AVATAR' AND target_id = ?1",
		)
			.bind(member)
			.all();
		expect(log.results).toEqual([{ moderator_id: ADMIN, target_type: 'MEMBER', target_id: member, reason: 'Not suitable' }]);
		const second = await call(url, { method: 'POST', cookie: admin, body: { reason: '' } });
		expect(second.body['content']).toEqual({ removed: false });
		expect(
			await env.DB.prepare("SELECT count(*) AS n FROM moderation_log WHERE action = 'REMOVE_AVATAR' AND target_id = ?1")
				.bind(member)
				.first<number>('n'),
		).toBe(1);
	});

	it('a member may not remove another’s, and an administrator names no member of another community', async () => {
		const member = members[10]!;
		await sendAvatar('?size=256', WEBP_256, await signIn(member));
		const asMember = await call(`${ORIGIN}/admin/v1/starfall/global/members/${member}/avatar/remove`, {
			method: 'POST',
			cookie: await signIn(members[11]!),
			body: { reason: '' },
		});
		expect(asMember.code).toBe(-4031403);
		const korean = await call(`${ORIGIN}/admin/v1/starfall/global/members/2004/avatar/remove`, {
			method: 'POST',
			cookie: await signIn(ADMIN),
			body: { reason: '' },
		});
		expect(korean.code).toBe(-4041404);
		expect(await memberObjects(member)).toEqual([avatarKey(GLOBAL, member, 256)]);
		expect(
			await env.DB.prepare("SELECT count(*) AS n FROM moderation_log WHERE action = 'REMOVE_AVATAR' AND target_id IN (?1, 2004)")
				.bind(member)
				.first<number>('n'),
		).toBe(0);
		expect(KOREAN.id).toBe(2);
	});
});

describe('the export and withdrawal', () => {
	it('the export lists the avatar’s URLs and when it was set; withdrawal deletes its row and its objects', async () => {
		const member = members[11]!;
		const cookie = await signIn(member);
		await sendAvatar('?size=256', WEBP_256, cookie);
		await sendAvatar('?size=96', JPEG_96, cookie, 'image/jpeg');
		const exported = await call(`${memberApi()}/me/export`, { method: 'POST', cookie });
		const profile = exported.body['profile'] as { avatar: { urls: string[]; updatedAt: string } };
		expect(profile.avatar.urls).toEqual([`${ORIGIN}/starfall/global/avatars/${member}?s=96`, `${ORIGIN}/starfall/global/avatars/${member}?s=256`]);
		expect(profile.avatar.updatedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
		expect((await call(`${memberApi()}/me/withdrawal`, { method: 'POST', cookie, body: { agree: true } })).code).toBe(0);
		expect(await avatarRow(member)).toBeNull();
		expect(await memberObjects(member)).toEqual([]);
	});

	it('a member without a picture exports none', async () => {
		const cookie = await signIn(members[4]!);
		const exported = await call(`${memberApi()}/me/export`, { method: 'POST', cookie });
		expect((exported.body['profile'] as { avatar: unknown }).avatar).toBeNull();
	});
});
