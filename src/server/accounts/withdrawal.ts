/**
 * Withdrawal (docs/reference/product-rules.md#states): the identity is unlinked from the channel (a later sign-in starts a new
 * membership), the nickname is retired, sessions, drafts, saved posts, notifications, watches, push
 * subscriptions, the avatar and the blocks by and of the member are deleted, and so are the earlier versions of
 * their posts and comments (edit history: src/server/revisions/revisions.ts); posts and comments stay
 * and show the withdrawn-member label.
 */
import { bumpContentVersion } from '@/server/content-versions/versions';
import { endMemberSessions } from '@/server/sign-in/sessions';
import { memberSearchStatements } from '@/server/search-index/search-index';
import { memberRevisionsDeletion } from '@/server/revisions/revisions';
import { withdrawalStatements } from '@/server/notifications/notifications';
import { blockWithdrawalStatements } from '@/server/members/blocks';
import { avatarWithdrawalStatement } from '@/server/members/avatars';

export async function withdrawMember(db: Db, channelId: number, memberId: number, now = Date.now()): Promise<void> {
	await db.batch([
		db
			.prepare(
				'UPDATE members SET identity_id = NULL, nickname = NULL, notification_email = NULL, notification_email_pending = NULL, notification_email_confirmed_at = NULL, withdrawn_at = ?3 WHERE id = ?1 AND channel_id = ?2',
			)
			.bind(memberId, channelId, now),
		db
			.prepare('UPDATE nickname_claims SET released_at = ?3 WHERE channel_id = ?1 AND member_id = ?2 AND released_at IS NULL')
			.bind(channelId, memberId, now),
		db.prepare('DELETE FROM drafts WHERE member_id = ?1').bind(memberId),
		// At most SAVED_POSTS_KEPT rows (src/server/saved/saved.ts).
		db.prepare('DELETE FROM saved_posts WHERE member_id = ?1').bind(memberId),
		memberRevisionsDeletion(db, memberId),
		...withdrawalStatements(db, memberId),
		...blockWithdrawalStatements(db, memberId),
		// The avatar's one row; its R2 objects are deleted by the route once this batch is in (deleteAvatarObjects).
		avatarWithdrawalStatement(db, memberId),
		endMemberSessions(db, memberId),
		...memberSearchStatements(db, channelId, memberId, null),
		bumpContentVersion(db, channelId),
	]);
}
