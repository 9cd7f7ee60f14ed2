/**
 * A member's role in a community: an administrator moderates it (the admin API). The
 * role is read from the member's row on every request, so a grant or a revocation holds from the
 * next request on. The operator command `npm run channel -- admin grant|revoke` runs this; each
 * change writes its row of the audit log in its batch. Readers see an administrator's role badge
 * beside their name on every page that shows it (posts, lists, comments, profile), so a change turns
 * the community's cached pages cold: a rare operator's act, never a member's.
 */
import { isAdmin, type Role } from '@/lib/roles';
import { AppError } from '@/server/platform/errors';
import { logStatement } from '@/server/moderation/log';
import { bumpContentVersion } from '@/server/content-versions/versions';

/**
 * Gives a member `role`; `moderatorId` is who did it (null: the operator command). Returns whether
 * it changed anything. @throws AppError UserNotFound when they are not an active member here
 */
export async function setMemberRole(
	db: Db,
	channelId: number,
	memberId: number,
	role: Role,
	moderatorId: number | null = null,
	now = Date.now(),
): Promise<boolean> {
	const member = await db
		.prepare('SELECT role FROM members WHERE id = ?1 AND channel_id = ?2 AND withdrawn_at IS NULL')
		.bind(memberId, channelId)
		.first<{ role: Role }>();
	if (!member) throw new AppError('UserNotFound');
	if (member.role === role) return false;
	await db.batch([
		db.prepare('UPDATE members SET role = ?3 WHERE id = ?1 AND channel_id = ?2').bind(memberId, channelId, role),
		logStatement(
			db,
			channelId,
			moderatorId,
			isAdmin({ role }) ? 'GRANT_ADMIN' : 'REVOKE_ADMIN',
			{ type: 'MEMBER', id: memberId },
			'',
			now,
			'changes() = 1',
		),
		bumpContentVersion(db, channelId),
	]);
	return true;
}
