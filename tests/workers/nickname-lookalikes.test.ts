/**
 * Look-alike nicknames: a name whose confusable skeleton (UTS #39) equals that
 * of any claimed name, current or retired, is refused at sign-up and at a change with the taken
 * code, race-free through the UNIQUE index on the skeleton; so is one that differs only by accents
 * or invisible characters (the bare skeleton, migration 0028), and invisible characters and stray
 * combining marks are refused outright. Claims from before the migrations get their skeletons from
 * the operator's backfill, which also lists the names in use that the rules now refuse.
 */
import { describe, expect, it } from 'vitest';
import { env } from 'cloudflare:workers';
import { call, memberApi, signIn, signUp, startSignup, type ChannelRef } from './harness';
import { backfillNicknameSkeletons, brokenUniqueRule, nicknameConflict, nicknameForms, nicknamesRefusedNow } from '@/server/accounts/nickname';
import { nicknameBareSkeleton, nicknameSkeleton } from '@/server/accounts/nickname-skeleton';

const FARM: ChannelRef = { id: 4, domain: 'pixelfarm', slug: 'main' };
const MEMBER = memberApi(FARM);
const TAKEN = -4091421;

async function trySignup(subject: string, nickname: string) {
	const signup = await startSignup(subject, FARM);
	await call(`${MEMBER}/signup/terms`, { method: 'POST', cookie: signup, body: { terms: true, privacy: true } });
	return call(`${MEMBER}/signup`, { method: 'POST', cookie: signup, body: { nickname } });
}

const claimsOf = async (nickname: string) =>
	(await env.DB.prepare('SELECT count(*) AS n FROM nickname_claims WHERE channel_id = 4 AND nickname = ?1').bind(nickname).first<number>('n')) ?? 0;
const membersNamed = async (nickname: string) =>
	(await env.DB.prepare('SELECT count(*) AS n FROM members WHERE channel_id = 4 AND nickname = ?1').bind(nickname).first<number>('n')) ?? 0;

describe('look-alike nicknames', () => {
	it('the demo administrator of PixelFarm is PixelFarmTeam, with its skeleton stored by the seed', async () => {
		const admin = await env.DB.prepare(
			"SELECT m.id, m.nickname, m.role, n.nickname_skeleton FROM members m JOIN nickname_claims n ON n.member_id = m.id AND n.released_at IS NULL WHERE m.channel_id = 4 AND m.role = 'ADMIN'",
		).first();
		expect(admin).toMatchObject({ id: 4001, nickname: 'PixelFarmTeam', role: 'ADMIN', nickname_skeleton: nicknameSkeleton('PixelFarmTeam') });
		expect(
			await env.DB.prepare('SELECT count(*) AS n FROM nickname_claims WHERE nickname_skeleton IS NULL OR nickname_bare_skeleton IS NULL').first('n'),
		).toBe(0);
	});

	it.each([
		['capital I', 'PixeIFarmTeam'],
		['digit 1', 'Pixe1FarmTeam'],
		['rn for m', 'PixelFarrnTeam'],
		['Cyrillic i', 'P\u0456xelFarmTeam'],
		['full-width', 'ＰｉｘｅｌＦａｒｍＴｅａｍ'],
		['lower case', 'pixelfarmteam'],
	])('refuses a look-alike of PixelFarmTeam at sign-up (%s), and writes nothing', async (_, nickname) => {
		const answer = await trySignup(`impostor-${nickname}`, nickname);
		// The Cyrillic і mixed with Latin is refused by the rules before any look-up.
		expect(answer.code).toBe(nickname.includes('\u0456') ? -4001424 : TAKEN);
		expect(answer.body.header.resultMessage).not.toContain('PixelFarmTeam');
		expect(await claimsOf(nickname)).toBe(0);
		expect(await membersNamed(nickname)).toBe(0);
	});

	it.each([
		['a combining grapheme joiner', 'PixelFarm\u034FTeam'],
		['a combining grapheme joiner in a staff word', 'Adm\u034Fin'],
		['a Hangul choseong filler', 'Pixel\u115FFarmTeam'],
		['a Hangul jungseong filler', 'Pixel\u1160FarmTeam'],
		['a Hangul filler', '픽셀농장\u3164'],
		['a half-width Hangul filler', '\uFFA0픽셀농장'],
		['a Mongolian free variation selector', 'PixelFarm\u180BTeam'],
		['a combining mark NFC does not compose', 'PixelFarm\u0331Team'],
	])('refuses a name with %s at sign-up as unusable, and writes nothing', async (_, nickname) => {
		const answer = await trySignup(`invisible-${crypto.randomUUID()}`, nickname);
		expect(answer.code).toBe(-4001424);
		expect(answer.body.header.resultMessage).toBe('This nickname cannot be used.');
		expect(await claimsOf(nickname.normalize('NFC'))).toBe(0);
		expect(await membersNamed(nickname.normalize('NFC'))).toBe(0);
	});

	it('refuses a name that differs from a claimed one only by accents, at sign-up and at a change', async () => {
		for (const nickname of ['PixèlFarmTeam', 'PíxelFarmTeam', 'Pixe\u0323lFarmTeam']) {
			const answer = await trySignup(`accent-${crypto.randomUUID()}`, nickname);
			expect(answer.code).toBe(TAKEN);
			expect(await claimsOf(nickname.normalize('NFC'))).toBe(0);
		}
		const { cookie, userId } = await signUp('accent-farmer', 'AccentFarmer', FARM);
		expect((await call(`${MEMBER}/me/nickname`, { method: 'PUT', cookie, body: { nickname: 'PixélFarmTeam' } })).code).toBe(TAKEN);
		expect(await env.DB.prepare('SELECT nickname FROM members WHERE id = ?1').bind(userId).first('nickname')).toBe('AccentFarmer');
	});

	it('refuses a staff word with an accent, and gives an accented name that comes first the plain one too', async () => {
		expect((await trySignup('accent-staff', 'Ádmin')).code).toBe(-4001424);
		// The accented name is its own when it comes first, and stores its bare skeleton.
		expect((await trySignup('accent-first', 'Zoë_Farm')).code).toBe(0);
		expect(
			await env.DB.prepare("SELECT nickname_bare_skeleton FROM nickname_claims WHERE channel_id = 4 AND nickname = 'Zoë_Farm'").first(
				'nickname_bare_skeleton',
			),
		).toBe(nicknameBareSkeleton('Zoe_Farm'));
		expect((await trySignup('accent-second', 'Zoe_Farm')).code).toBe(TAKEN);
	});

	it('refuses a look-alike of the administrator at a nickname change', async () => {
		const { cookie, userId } = await signUp('honest-farmer', 'HonestFarmer', FARM);
		const answer = await call(`${MEMBER}/me/nickname`, { method: 'PUT', cookie, body: { nickname: 'PixeIFarmTeam' } });
		expect(answer.code).toBe(TAKEN);
		expect(await env.DB.prepare('SELECT nickname FROM members WHERE id = ?1').bind(userId).first('nickname')).toBe('HonestFarmer');
		expect(await claimsOf('PixeIFarmTeam')).toBe(0);
	});

	it('refuses look-alikes of retired names: a changed one and one of a withdrawn member', async () => {
		// Member 4002 was Parsley_Pip before; member 4040 (TomatoTom) withdrew.
		expect(
			await env.DB.prepare("SELECT member_id, released_at IS NOT NULL AS retired FROM nickname_claims WHERE nickname = 'Parsley_Pip'").first(),
		).toEqual({ member_id: 4002, retired: 1 });
		expect((await trySignup('retired-1', 'ParsIey_Pip')).code).toBe(TAKEN);
		expect((await trySignup('retired-2', 'TornatoTorn')).code).toBe(TAKEN);
		const { cookie } = await signUp('retired-3', 'PlainName', FARM);
		expect((await call(`${MEMBER}/me/nickname`, { method: 'PUT', cookie, body: { nickname: 'Pars1ey_Pip' } })).code).toBe(TAKEN);
	});

	it('refuses a member a look-alike of their own names with the codes of the names themselves', async () => {
		const admin = await signIn(4001, FARM);
		// One's current name in disguise is no change; one's retired name in disguise is unusable.
		expect((await call(`${MEMBER}/me/nickname`, { method: 'PUT', cookie: admin, body: { nickname: 'PixeIFarmTeam' } })).code).toBe(-4001425);
		const changed = await signIn(4002, FARM);
		expect((await call(`${MEMBER}/me/nickname`, { method: 'PUT', cookie: changed, body: { nickname: 'ParsIey_Pip' } })).code).toBe(-4001424);
	});

	it.each(['Adm1n', 'ADMlN', 'Adrnin', 'Moderat0r', 'Systern', '0fficial'])(
		'refuses %s, a look-alike of a reserved staff word, as unusable',
		async (nickname) => {
			const answer = await trySignup(`reserved-${nickname}`, nickname);
			expect(answer.code).toBe(-4001424);
			expect(await claimsOf(nickname)).toBe(0);
		},
	);

	it('accepts ordinary distinct names and stores their skeleton', async () => {
		for (const [subject, nickname] of [
			['distinct-1', 'PixelFarmFan'],
			['distinct-2', '픽셀농장팬'],
			['distinct-3', 'ピクセル農園'],
			['distinct-4', '像素農場迷'],
		]) {
			const answer = await trySignup(subject!, nickname!);
			expect(answer.code).toBe(0);
			expect(
				await env.DB.prepare('SELECT nickname_skeleton FROM nickname_claims WHERE channel_id = 4 AND nickname = ?1')
					.bind(nickname)
					.first('nickname_skeleton'),
			).toBe(nicknameSkeleton(nickname!));
		}
		// Another community has its own names: PixeIFarmTeam is free in Starfall Global.
		expect(await nicknameConflict(env.DB, 1, nicknameForms('PixeIFarmTeam'), null)).toBeNull();
	});

	it('lets exactly one of two racing look-alike sign-ups through', async () => {
		const [first, second] = await Promise.all([trySignup('racer-1', 'BarnOwlBen'), trySignup('racer-2', 'BarnOw1Ben')]);
		expect([first.code, second.code].sort()).toEqual([TAKEN, 0]);
		expect((await claimsOf('BarnOwlBen')) + (await claimsOf('BarnOw1Ben'))).toBe(1);
	});

	it('holds the rule in D1 itself: a second claim with a taken skeleton breaks the UNIQUE index, read as the taken name', async () => {
		const error = await env.DB.prepare(
			'INSERT INTO nickname_claims (channel_id, nickname_key, nickname_skeleton, nickname, member_id, claimed_at) VALUES (4, ?1, ?2, ?3, 4003, 1)',
		)
			.bind('pixeifarmteam', nicknameSkeleton('PixeIFarmTeam'), 'PixeIFarmTeam')
			.run()
			.then(
				() => null,
				(caught: unknown) => caught,
			);
		expect(String(error)).toMatch(/UNIQUE constraint failed/);
		expect(brokenUniqueRule(error)).toBe('nickname');
		// The same for a claim whose skeleton is new but whose bare skeleton is taken.
		const bare = await env.DB.prepare(
			'INSERT INTO nickname_claims (channel_id, nickname_key, nickname_skeleton, nickname_bare_skeleton, nickname, member_id, claimed_at) VALUES (4, ?1, ?2, ?3, ?4, 4003, 1)',
		)
			.bind('pixèlfarmteam', nicknameSkeleton('PixèlFarmTeam'), nicknameBareSkeleton('PixèlFarmTeam'), 'PixèlFarmTeam')
			.run()
			.then(
				() => null,
				(caught: unknown) => caught,
			);
		expect(String(bare)).toMatch(/UNIQUE constraint failed: nickname_claims\.channel_id, nickname_claims\.nickname_bare_skeleton/);
		expect(brokenUniqueRule(bare)).toBe('nickname');
	});
});

describe('the skeleton backfill (npm run member -- skeletons)', () => {
	it('fills in claims made before migration 0017 in claim order and reports a look-alike accepted before it', async () => {
		// As before the migration: the administrator's claim without a skeleton, and an impostor's
		// claim accepted beside it.
		await env.DB.prepare('UPDATE nickname_claims SET nickname_skeleton = NULL WHERE channel_id = 4 AND member_id IN (4001, 4003, 4004)').run();
		await env.DB.prepare(
			"INSERT INTO nickname_claims (channel_id, nickname_key, nickname_skeleton, nickname_bare_skeleton, nickname, member_id, claimed_at, released_at) VALUES (4, 'pixeifarmteam', NULL, NULL, 'PixeIFarmTeam', 4005, 2, 3)",
		).run();
		const { filled, collisions } = await backfillNicknameSkeletons(env.DB);
		expect(filled).toBe(3);
		expect(collisions).toEqual([
			{ channelId: 4, nickname: 'PixeIFarmTeam', memberId: 4005, lookAlikeOf: { nickname: 'PixelFarmTeam', memberId: 4001 } },
		]);
		expect(
			await env.DB.prepare('SELECT nickname_skeleton FROM nickname_claims WHERE channel_id = 4 AND member_id = 4001').first('nickname_skeleton'),
		).toBe(nicknameSkeleton('PixelFarmTeam'));
		// Once filled, the check holds again; a second run fills nothing twice.
		expect((await trySignup('after-backfill', 'PixelFarrnTeam')).code).toBe(TAKEN);
		expect((await backfillNicknameSkeletons(env.DB)).filled).toBe(0);
	});

	it('fills in bare skeletons of claims made before migration 0028, and lists the names in use that the rules now refuse', async () => {
		// As before the migration: no claim has a bare skeleton, and an impostor took the
		// administrator's name with an invisible mark inside (its skeleton differs from the name's).
		await env.DB.prepare('UPDATE nickname_claims SET nickname_bare_skeleton = NULL WHERE channel_id = 4').run();
		const impostor = 'PixelFarm\u034FTeam';
		expect(nicknameSkeleton(impostor)).not.toBe(nicknameSkeleton('PixelFarmTeam'));
		await env.DB.prepare('UPDATE members SET nickname = ?1 WHERE id = 4006').bind(impostor).run();
		await env.DB.prepare('UPDATE nickname_claims SET released_at = 1 WHERE member_id = 4006 AND released_at IS NULL').run();
		await env.DB.prepare(
			'INSERT INTO nickname_claims (channel_id, nickname_key, nickname_skeleton, nickname_bare_skeleton, nickname, member_id, claimed_at) VALUES (4, ?1, ?2, NULL, ?3, 4006, 2)',
		)
			.bind(impostor.toLowerCase(), nicknameSkeleton(impostor), impostor)
			.run();
		// Before the backfill, a name differing by an accent meets nothing but the skeletons.
		expect(await nicknameConflict(env.DB, 4, nicknameForms('PixèlFarmTeam'), null)).toBeNull();
		const claims = (await env.DB.prepare('SELECT count(*) AS n FROM nickname_claims WHERE channel_id = 4').first<number>('n'))!;
		const { filled, collisions } = await backfillNicknameSkeletons(env.DB);
		// Left out: the impostor (and a look-alike an earlier test of this file accepted before 0017).
		expect(collisions).toContainEqual({
			channelId: 4,
			nickname: impostor,
			memberId: 4006,
			lookAlikeOf: { nickname: 'PixelFarmTeam', memberId: 4001 },
		});
		expect(filled).toBe(claims - collisions.length);
		expect(await env.DB.prepare('SELECT count(*) AS n FROM nickname_claims WHERE channel_id = 4 AND nickname_bare_skeleton IS NULL').first('n')).toBe(
			collisions.length,
		);
		expect(await nicknameConflict(env.DB, 4, nicknameForms('PixèlFarmTeam'), null)).toBe('NicknameTaken');
		// The review lists the impostor's name, in use, as the rules refuse it now; nothing is changed.
		expect((await nicknamesRefusedNow(env.DB)).filter((name) => name.channelId === 4)).toEqual([
			{ channelId: 4, nickname: impostor, memberId: 4006, code: 'NicknameUnusable' },
		]);
		expect(await env.DB.prepare('SELECT nickname FROM members WHERE id = 4006').first('nickname')).toBe(impostor);
	});
});
