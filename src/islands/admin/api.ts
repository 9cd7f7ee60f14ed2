/**
 * The admin area's calls (the admin API, functions/api/admin.ts) and the shapes it answers with.
 * Every call carries the session cookie; the API checks the administrator role on each.
 */
import { createApiClient } from '@/lib/api-client';

export type TargetType = 'POST' | 'COMMENT';
export type QueueOrder = 'newest' | 'most';

export interface Person {
	userId: number;
	nickname: string | null;
}

export interface Paged {
	page: number;
	totalCount: number;
	totalPages: number;
}

export interface QueueGroup {
	targetType: TargetType;
	targetId: number;
	postId: number | null;
	excerpt: string | null;
	writer: Person | null;
	hidden: boolean;
	deleted: boolean;
	count: number;
	lastReportedAt: number;
	reports: { reporter: Person; reasonCode: string; reasonText: string; createdAt: number }[];
}

export interface ClosedReport {
	reportId: number;
	targetType: TargetType;
	targetId: number;
	target: TargetLabel;
	reporter: Person;
	reasonCode: string;
	reasonText: string;
	createdAt: number;
	status: 'RESOLVED' | 'DISMISSED';
	resolvedAt: number;
	resolvedBy: Person | null;
}

export interface BanInForce {
	member: Person;
	kind: 'TEMPORARY' | 'PERMANENT';
	endsAt: number | null;
	reason: string;
	createdAt: number;
}

export interface BanRecord {
	kind: 'TEMPORARY' | 'PERMANENT';
	endsAt: number | null;
	reason: string;
	createdAt: number;
	liftedAt: number | null;
}

export interface MemberBans {
	member: Person & { withdrawn: boolean; admin: boolean };
	bans: BanRecord[];
}

/** What the API says of a target besides its id (src/server/moderation/log.ts TargetLabel). */
export interface TargetLabel {
	postId: number | null;
	title: string | null;
	excerpt: string | null;
	nickname: string | null;
}

export interface LogEntry {
	entryId: number;
	moderator: Person | null;
	action: string;
	targetType: 'POST' | 'COMMENT' | 'MEMBER' | 'CHANNEL';
	targetId: number;
	target: TargetLabel;
	reason: string;
	createdAt: number;
}

export type QueuePage = Paged & { groups: QueueGroup[] };
export type HistoryPage = Paged & { reports: ClosedReport[] };
export type BansPage = Paged & { bans: BanInForce[] };
export type LogPage = Paged & { entries: LogEntry[] };
export interface Settings {
	autoHideReports: number | null;
	reportMinAgeHours: number;
}

/** A post's or comment's text as stored, hidden and deleted ones too (src/server/moderation/removed-text.ts). */
export interface StoredText {
	targetType: TargetType;
	targetId: number;
	postId: number;
	title: string | null;
	text: string;
	writer: Person & { withdrawn: boolean };
	createdAt: number;
	editedAt: number | null;
	deletedAt: number | null;
	hidden: boolean;
	autoHidden: boolean;
}

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
		storedText: (type: TargetType, id: number) => content<StoredText>(api.get(`${base}/content/${kind(type)}/${id}`)),
		findMember: (nickname: string) => content<MemberBans>(api.get(`${base}/members`, { nickname })),
		memberBans: (userId: number) => content<MemberBans>(api.get(`${base}/members/${userId}/bans`)),
		setHidden: (type: TargetType, id: number, hidden: boolean, reason: string) =>
			api.post(`${base}/${kind(type)}/${id}/${hidden ? 'hide' : 'unhide'}`, { reason }),
		dismiss: (type: TargetType, id: number, reason: string) => api.post(`${base}/reports/${kind(type)}/${id}/dismiss`, { reason }),
		ban: (userId: number, order: { kind: 'TEMPORARY'; endsAt: number; reason: string } | { kind: 'PERMANENT'; reason: string }) =>
			content<MemberBans>(api.post(`${base}/members/${userId}/ban`, order)),
		unban: (userId: number, reason: string) => content<MemberBans>(api.post(`${base}/members/${userId}/unban`, { reason })),
	};
}

export type AdminApi = ReturnType<typeof adminApi>;
