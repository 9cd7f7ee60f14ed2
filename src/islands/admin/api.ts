/**
 * The admin area's calls (the admin API, functions/api/routers/admin.ts) and the shapes it answers with.
 * Every call carries the session cookie; the API checks the administrator role on each.
 */
import { createApiClient } from '@/lib/api-client';
import type {
	BanOrder,
	BanRecord,
	BansPage,
	HistoryPage,
	LogPage,
	MemberBans,
	QueueOrder,
	QueuePage,
	Settings,
	StoredText,
	TargetType,
} from '@/lib/api-types';

// The shapes the admin API answers with, derived from functions/api/routers/admin.ts (src/lib/api-types.ts).
export type {
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

export function adminApi(base: string) {
	const api = createApiClient();
	const content = async <T>(promise: Promise<{ content: T }>) => (await promise).content;
	const kind = (type: TargetType) => (type === 'POST' ? 'posts' : 'comments');
	return {
		queue: (page: number, order: QueueOrder) => content<QueuePage>(api.get(`${base}/reports`, { page, order })),
		history: (page: number) => content<HistoryPage>(api.get(`${base}/reports/history`, { page })),
		bans: (page: number) => content<BansPage>(api.get(`${base}/bans`, { page })),
		log: (page: number) => content<LogPage>(api.get(`${base}/audit-log`, { page })),
		settings: () => content<Settings>(api.get(`${base}/settings`)),
		saveSettings: (settings: Settings) => content<Settings>(api.put(`${base}/settings`, settings)),
		// A POST: each read writes its row of the audit log.
		storedText: (type: TargetType, id: number) => content<StoredText>(api.post(`${base}/content/${kind(type)}/${id}`)),
		findMember: (nickname: string) => content<MemberBans>(api.get(`${base}/members`, { nickname })),
		memberBans: (userId: number) => content<MemberBans>(api.get(`${base}/members/${userId}/bans`)),
		setHidden: (type: TargetType, id: number, hidden: boolean, reason: string) =>
			api.post(`${base}/${kind(type)}/${id}/${hidden ? 'hide' : 'unhide'}`, { reason }),
		dismiss: (type: TargetType, id: number, reason: string) => api.post(`${base}/reports/${kind(type)}/${id}/dismiss`, { reason }),
		ban: (userId: number, order: BanOrder) => content<MemberBans>(api.post(`${base}/members/${userId}/ban`, order)),
		unban: (userId: number, reason: string) => content<MemberBans>(api.post(`${base}/members/${userId}/unban`, { reason })),
	};
}

export type AdminApi = ReturnType<typeof adminApi>;
