/**
 * Avatars (docs/reference/avatars.md): a member's picture, made square and resized in their browser,
 * stored in R2 as one object per size under a key of the community and the member, so a change
 * overwrites it (R2 holds at most one object set per member, whatever they do) and the stable URL
 * /{domain}/{slug}/avatars/{memberId}?s=… answers it without reading D1. A member without a picture
 * is answered their generated one (src/lib/avatars.ts). The row of member_avatars
 * (migrations/0040_member_avatars.sql) says which sizes are set, for the export and the
 * administrators, and counts the day's uploads. No page version moves: pages embed only the URL.
 */
import { AppError, isAppError } from '@/server/platform/errors';
import { cleanImage } from '@/server/uploads/image-format';
import { logStatement } from '@/server/moderation/log';
import { read, type Read } from '@/server/platform/reads';
import { memberIdSql, memberIdValue, type MemberRef } from '@/server/sign-in/member-ref';
import { AVATAR_MAX_BYTES, AVATAR_SIZES, AVATAR_TYPES, AVATAR_UPLOADS_PER_DAY, type AvatarSize } from '@/lib/avatars';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Where a community is, as the avatar's key and URL name it. */
export interface AvatarChannel {
	id: number;
	domain: string;
	slug: string;
}

/** The R2 key of `memberId`'s avatar at `size` in the community. */
export function avatarKey(channel: Pick<AvatarChannel, 'domain' | 'slug'>, memberId: number, size: AvatarSize): string {
	return `avatars/${channel.domain}/${channel.slug}/${memberId}/${size}`;
}

/** The bit of `size` in member_avatars.sizes. */
const sizeBit = (size: AvatarSize): number => 1 << AVATAR_SIZES.indexOf(size);

/**
 * Stores one size of the member's picture: a whole square JPEG or WebP of exactly `size` pixels a
 * side and at most AVATAR_MAX_BYTES (what the browser's crop makes), checked and cleaned as every
 * upload is (the pixel limits of image-format.ts first). The row first, counting the day's uploads
 * (at most AVATAR_UPLOADS_PER_DAY in 24 hours, in the same UPSERT, so racing requests cannot pass
 * it), then the object, overwriting the earlier one. Writes one row and one object; a refusal
 * writes nothing.
 * @throws AppError ImageResolutionTooHigh past the pixel limits, InvalidAvatar for anything else
 *   that is not such an image, AvatarDailyLimitReached past the day's uploads
 */
export async function storeAvatar(
	db: Db,
	bucket: R2Bucket,
	channel: AvatarChannel,
	memberId: number,
	size: AvatarSize,
	bytes: Uint8Array,
	now: number,
): Promise<{ size: AvatarSize; bytes: number; contentType: string }> {
	if (bytes.length === 0 || bytes.length > AVATAR_MAX_BYTES) throw new AppError('InvalidAvatar');
	let image;
	try {
		image = cleanImage(bytes);
	} catch (error) {
		if (isAppError(error) && error.codeName === 'ImageResolutionTooHigh') throw error;
		if (isAppError(error)) throw new AppError('InvalidAvatar');
		throw error;
	}
	if (!(AVATAR_TYPES as readonly string[]).includes(image.contentType) || image.width !== size || image.height !== size) {
		throw new AppError('InvalidAvatar');
	}
	const counted = await db
		.prepare(
			`INSERT INTO member_avatars (member_id, channel_id, sizes, updated_at, day_started_at, day_changes) VALUES (?1, ?2, ?3, ?4, ?4, 1)
			 ON CONFLICT (member_id) DO UPDATE SET sizes = sizes | excluded.sizes, updated_at = excluded.updated_at,
				day_changes = CASE WHEN day_started_at <= ?4 - ?5 THEN 1 ELSE day_changes + 1 END,
				day_started_at = CASE WHEN day_started_at <= ?4 - ?5 THEN ?4 ELSE day_started_at END
			 WHERE channel_id = ?2 AND (day_started_at <= ?4 - ?5 OR day_changes < ?6)
			 RETURNING member_id`,
		)
		.bind(memberId, channel.id, sizeBit(size), now, DAY_MS, AVATAR_UPLOADS_PER_DAY)
		.first<{ member_id: number }>();
	if (!counted) throw new AppError('AvatarDailyLimitReached');
	await bucket.put(avatarKey(channel, memberId, size), image.bytes, { httpMetadata: { contentType: image.contentType } });
	return { size, bytes: image.bytes.length, contentType: image.contentType };
}

/** The statement that marks the member's avatar removed (the row and its day's count stay); `when` as logStatement's. */
function unsetStatement(db: Db, channelId: number, memberId: number, now: number): D1PreparedStatement {
	return db
		.prepare('UPDATE member_avatars SET sizes = 0, updated_at = ?3 WHERE member_id = ?1 AND channel_id = ?2 AND sizes <> 0')
		.bind(memberId, channelId, now);
}

/** Deletes the member's avatar objects (every size; deleting a key that is not there is nothing). */
export async function deleteAvatarObjects(bucket: R2Bucket, channel: Pick<AvatarChannel, 'domain' | 'slug'>, memberId: number): Promise<void> {
	await bucket.delete(AVATAR_SIZES.map((size) => avatarKey(channel, memberId, size)));
}

/** The member removes their own picture: their generated avatar shows again. One row written (none when none was set), its objects deleted. */
export async function removeOwnAvatar(db: Db, bucket: R2Bucket, channel: AvatarChannel, memberId: number, now: number): Promise<void> {
	await unsetStatement(db, channel.id, memberId, now).run();
	await deleteAvatarObjects(bucket, channel, memberId);
}

/**
 * An administrator removes a member's picture, audited in the moderation log (REMOVE_AVATAR) in the
 * same batch: two rows written, the log's only when a picture was set. Returns whether one was.
 * @throws AppError UserNotFound when `memberId` is no member of this community
 */
export async function removeAvatarAsAdministrator(
	db: Db,
	bucket: R2Bucket,
	channel: AvatarChannel,
	moderatorId: number,
	memberId: number,
	reason: string,
	now: number,
): Promise<boolean> {
	const [member, unset] = await db.batch([
		db.prepare('SELECT id FROM members WHERE id = ?1 AND channel_id = ?2').bind(memberId, channel.id),
		unsetStatement(db, channel.id, memberId, now),
		logStatement(db, channel.id, moderatorId, 'REMOVE_AVATAR', { type: 'MEMBER', id: memberId }, reason, now, 'changes() = 1'),
	]);
	if ((member?.results.length ?? 0) === 0) throw new AppError('UserNotFound');
	await deleteAvatarObjects(bucket, channel, memberId);
	return (unset?.meta.changes ?? 0) > 0;
}

/** Withdrawal's statement: the member's avatar row goes (one row); the objects go with deleteAvatarObjects. */
export function avatarWithdrawalStatement(db: Db, memberId: number): D1PreparedStatement {
	return db.prepare('DELETE FROM member_avatars WHERE member_id = ?1').bind(memberId);
}

/** Whether `who` has a picture set (My Page offers Remove then); in the session's round trip. */
export function hasAvatarRead(db: Db, channelId: number, who: MemberRef): Read<boolean> {
	const statement = db
		.prepare(`SELECT sizes FROM member_avatars WHERE member_id = ${memberIdSql(who, '?1')} AND channel_id = ?2`)
		.bind(memberIdValue(who), channelId);
	return read(statement, (result) => Number((result.results[0] as { sizes?: number } | undefined)?.sizes ?? 0) > 0);
}

/** The stored avatar of a member at `size`, for serving; null when none is set. */
export async function readAvatar(
	bucket: R2Bucket,
	channel: Pick<AvatarChannel, 'domain' | 'slug'>,
	memberId: number,
	size: AvatarSize,
	ifNoneMatch: string | null,
): Promise<{ contentType: string; etag: string; size: number; body: ReadableStream | null } | null> {
	const key = avatarKey(channel, memberId, size);
	const object = await bucket.get(key, ifNoneMatch ? { onlyIf: { etagDoesNotMatch: ifNoneMatch.replace(/^W\//, '').replace(/"/g, '') } } : {});
	if (!object) return null;
	return {
		contentType: object.httpMetadata?.contentType === 'image/jpeg' ? 'image/jpeg' : 'image/webp',
		etag: object.httpEtag,
		size: object.size,
		body: 'body' in object ? (object as R2ObjectBody).body : null,
	};
}
