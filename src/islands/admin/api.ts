/**
 * The admin area's calls (the admin API, functions/api/routers/admin.ts) and the shapes it answers with.
 * Every call carries the session cookie; the API checks the administrator role on each.
 */
import { createApiClient } from '@/lib/api-client';
import type { BanOrder, BanRecord, QueueOrder, Settings, TargetType } from '@/lib/api-types';
import type { ChannelRef } from '@/lib/urls';

// The shapes the admin API answers with, derived from functions/api/routers/admin.ts (src/lib/api-types.ts).
export type {
	BanOrder,
	BanRecord,
	BansPage,
	HistoryPage,
	LogEntry,
	LogPage,
	MemberBans,
	Person,
	QueueGroup,
	QueueOrder,
	QueuePage,
	Settings,
	StoredText,
	TargetLabel,
	TargetType,
} from '@/lib/api-types';

/** Whether a ban (temporary, not lifted) is in force at `now`. */
export function inForce(ban: BanRecord, now: number): boolean {
	return ban.liftedAt === null && (ban.endsAt === null || ban.endsAt > now);
}

/** The admin API of `channel` (functions/api/admin.ts), each call answering its route's content. */
export function adminApi(channel: ChannelRef) {
	const { admin } = createApiClient({ channel });
	const targetId = (type: TargetType, id: number) => ({ targetType: type === 'POST' ? 'posts' : 'comments', targetId: id });
	return {
		queue: (page: number, order: QueueOrder) => admin.get('/reports', { query: { page, order } }),
		history: (page: number) => admin.get('/reports/history', { query: { page } }),
		bans: (page: number) => admin.get('/bans', { query: { page } }),
		log: (page: number) => admin.get('/audit-log', { query: { page } }),
		settings: () => admin.get('/settings'),
		saveSettings: (settings: Settings) => admin.put('/settings', { json: settings }),
		// A POST: each read writes its row of the audit log.
		storedText: (type: TargetType, id: number) => admin.post('/content/:targetType/:targetId', { param: targetId(type, id) }),
		findMember: (nickname: string) => admin.get('/members', { query: { nickname } }),
		memberBans: (userId: number) => admin.get('/members/:userId/bans', { param: { userId } }),
		setHidden: (type: TargetType, id: number, hidden: boolean, reason: string) => {
			const json = { reason };
			if (type === 'POST')
				return hidden
					? admin.post('/posts/:postId/hide', { param: { postId: id }, json })
					: admin.post('/posts/:postId/unhide', { param: { postId: id }, json });
			return hidden
				? admin.post('/comments/:commentId/hide', { param: { commentId: id }, json })
				: admin.post('/comments/:commentId/unhide', { param: { commentId: id }, json });
		},
		dismiss: (type: TargetType, id: number, reason: string) =>
			admin.post('/reports/:targetType/:targetId/dismiss', { param: targetId(type, id), json: { reason } }),
		ban: (userId: number, order: BanOrder) => admin.post('/members/:userId/ban', { param: { userId }, json: order }),
		unban: (userId: number, reason: string) => admin.post('/members/:userId/unban', { param: { userId }, json: { reason } }),
	};
}

export type AdminApi = ReturnType<typeof adminApi>;
