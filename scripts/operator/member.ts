/**
 * `npm run member`: the operator command for bans. It runs the same services as the API
 * (src/server/members/bans.ts) on the local D1 or, with --remote, on the deployed one.
 *
 *   npm run member -- ban   --channel starfall/global --member 1005 --days 7 [--reason "Spam"]
 *   npm run member -- ban   --channel starfall/global --member 1005 --until 2027-01-31T12:00Z
 *   npm run member -- ban   --channel starfall/global --member 1005 --permanent
 *   npm run member -- unban --channel starfall/global --member 1005
 *   npm run member -- show  --channel starfall/global --member 1005
 *   npm run member -- skeletons
 *
 * Options: --persist-to DIR (another local state folder), --remote (the deployed database; needs
 * `wrangler login`). Banning ends the member's sessions at once; a temporary ban lifts itself at
 * its end. `skeletons` fills in the look-alike skeletons of every nickname claimed before migrations
 * 0017 and 0028 (docs/reference/nicknames.md), lists the names that look like an earlier one, and lists the
 * names in use that today's nickname rules refuse (an invisible character, a stray combining mark).
 */
import { parseArgs } from 'node:util';
import { banMember, memberBanHistory, unbanMember, type BanOrder } from '@/server/members/bans';
import { backfillNicknameSkeletons, nicknamesRefusedNow } from '@/server/accounts/nickname';
import { isAppError } from '@/server/platform/errors';
import { channelPathOf, IdSchema } from '@/schemas/params';
import { openDatabase } from './database';

const DAY_MS = 86_400_000;

class UsageError extends Error {}

function banOrder(
	values: { days?: string | undefined; until?: string | undefined; permanent?: boolean | undefined; reason?: string | undefined },
	now: number,
): BanOrder {
	const reason = values.reason ?? '';
	if (values.permanent) return { kind: 'PERMANENT', endsAt: null, reason };
	const endsAt = values.days ? now + Number(values.days) * DAY_MS : values.until ? Date.parse(values.until) : Number.NaN;
	if (!Number.isFinite(endsAt) || endsAt <= now)
		throw new UsageError('a temporary ban needs --days N or --until DATE in the future (or use --permanent)');
	return { kind: 'TEMPORARY', endsAt, reason };
}

/** A name as the operator can read it: invisible characters and combining marks as <U+XXXX>. */
function shown(nickname: string): string {
	const escaped = nickname.replace(
		/[\p{C}\p{M}\p{Default_Ignorable_Code_Point}]/gu,
		(character) => `<U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}>`,
	);
	return `"${escaped}"`;
}

/**
 * `skeletons`: the one-off backfill of migrations 0017 and 0028, then the names in use that today's
 * rules refuse (read only); exit 1 when look-alikes or such names need a review.
 */
async function fillSkeletons(remote: boolean, persistTo: string | undefined): Promise<number> {
	const database = await openDatabase({ remote, persistTo });
	try {
		let review = false;
		// Each database holds its communities' members whole (docs/reference/databases.md).
		for (const name of database.databases.names) {
			const db = database.databases.open(name);
			const { filled, collisions } = await backfillNicknameSkeletons(db);
			console.log(`${name}: filled in the skeletons of ${filled} nickname claim${filled === 1 ? '' : 's'}.`);
			for (const claim of collisions) {
				const earlier = claim.lookAlikeOf ? `${shown(claim.lookAlikeOf.nickname)} (member ${claim.lookAlikeOf.memberId})` : 'an earlier claim';
				console.log(
					`Look-alike: ${shown(claim.nickname)} (member ${claim.memberId}, community ${claim.channelId}) looks like ${earlier}; it is left without that skeleton. Review it.`,
				);
			}
			const refused = await nicknamesRefusedNow(db);
			for (const found of refused)
				console.log(
					`Refused now: ${shown(found.nickname)} (member ${found.memberId}, community ${found.channelId}) breaks a nickname rule (${found.code}). Review it.`,
				);
			review ||= collisions.length > 0 || refused.length > 0;
		}
		return review ? 1 : 0;
	} finally {
		await database.close();
	}
}

export async function main(argv: string[]): Promise<number> {
	const { values, positionals } = parseArgs({
		args: argv,
		allowPositionals: true,
		options: {
			channel: { type: 'string' },
			member: { type: 'string' },
			days: { type: 'string' },
			until: { type: 'string' },
			permanent: { type: 'boolean', default: false },
			reason: { type: 'string', default: '' },
			'persist-to': { type: 'string' },
			remote: { type: 'boolean', default: false },
		},
	});
	const [command] = positionals;
	const [domain, slug] = (values.channel ?? '').split('/');
	const path = channelPathOf({ domain, slug });
	const memberId = IdSchema.safeParse(values.member ?? '');
	try {
		if (command === 'skeletons') return await fillSkeletons(values.remote, values['persist-to']);
		if (command !== 'ban' && command !== 'unban' && command !== 'show') throw new UsageError('the command is ban, unban, show or skeletons');
		if (!path) throw new UsageError('--channel takes domain/slug, e.g. starfall/global');
		if (!memberId.success) throw new UsageError('--member takes a member id (the userId of users/{userId})');
		const order = command === 'ban' ? banOrder(values, Date.now()) : null;
		const database = await openDatabase({ remote: values.remote, persistTo: values['persist-to'] });
		try {
			const community = await database.community(path.domain, path.slug);
			if (!community) throw new UsageError(`there is no community ${path.domain}/${path.slug}`);
			const { db, channel } = community;
			const { member } = await memberBanHistory(db, channel.id, memberId.data);
			const name = `${member.nickname ?? 'a withdrawn member'} (${member.userId}) in ${channel.domain}/${channel.slug}`;
			if (order) {
				await banMember(db, channel.id, member.userId, order);
				console.log(
					`Banned ${name}: ${order.endsAt === null ? 'permanently' : `until ${new Date(order.endsAt).toISOString()}`}. Their sessions have ended.`,
				);
			} else if (command === 'unban') {
				await unbanMember(db, channel.id, member.userId);
				console.log(`Lifted every ban of ${name}.`);
			} else {
				console.log(JSON.stringify(await memberBanHistory(db, channel.id, member.userId), null, 2));
			}
		} finally {
			await database.close();
		}
		return 0;
	} catch (error) {
		if (error instanceof UsageError || isAppError(error)) {
			console.error(`member: ${error.message}`);
			return 2;
		}
		if (error instanceof Error && /no such table/i.test(error.message)) {
			console.error('member: this database has no communities yet (run `npm start` or `npm run seed` first, or pass --persist-to)');
			return 2;
		}
		throw error;
	}
}
