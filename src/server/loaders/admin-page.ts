/**
 * What the admin area loads (issue 12): the channel page of one of its administrators, and the
 * first page of the tab asked for, read by the same services as the admin API. Anyone else (a
 * guest, a member, an administrator of another community, a banned one) gets the not-found page,
 * and the answer is never stored by a cache.
 */
import type { AstroGlobal } from 'astro';
import { loadChannelPage, type ChannelPage } from './channel-page';
import type { SessionMember } from '@/server/sign-in/sessions';
import { listClosedReports, listReportQueue, type QueueOrder } from '@/server/moderation/reports-queue';
import { listBansInForce } from '@/server/members/bans';
import { listLog } from '@/server/moderation/log';
import { moderationSettings } from '@/server/moderation/settings';
import { lenientPage } from '@/schemas/params';

export const ADMIN_TABS = ['reports', 'history', 'bans', 'log', 'settings'] as const;
type AdminTab = (typeof ADMIN_TABS)[number];

export interface AdminPage {
	page: ChannelPage;
	admin: SessionMember;
	tab: AdminTab;
	order: QueueOrder;
	initial: unknown;
}

type Context = Pick<AstroGlobal, 'params' | 'request' | 'response' | 'locals' | 'csp' | 'url' | 'rewrite'>;

/** A list's page, or its last page when the one asked for is past the end. */
async function clamped<T extends { page: number; totalPages: number }>(read: (page: number) => Promise<T>, page: number): Promise<T> {
	const first = await read(page);
	return first.page > first.totalPages ? read(first.totalPages) : first;
}

export async function loadAdminPage(astro: Context): Promise<AdminPage | Response> {
	const page = await loadChannelPage(astro);
	astro.response.headers.set('Cache-Control', 'private, no-store');
	if (!page || page.session.kind !== 'member' || page.session.member.role !== 'ADMIN') {
		const notFound = await astro.rewrite('/404');
		notFound.headers.set('Cache-Control', 'private, no-store');
		return notFound;
	}
	const { db, channel } = page;
	const query = astro.url.searchParams;
	const tab = ADMIN_TABS.find((candidate) => candidate === query.get('tab')) ?? 'reports';
	const order: QueueOrder = query.get('order') === 'most' ? 'most' : 'newest';
	const number = lenientPage(query.get('page'));
	const initial =
		tab === 'reports'
			? await clamped((n) => listReportQueue(db, channel.id, n, order), number)
			: tab === 'history'
				? await clamped((n) => listClosedReports(db, channel.id, n), number)
				: tab === 'bans'
					? await clamped((n) => listBansInForce(db, channel.id, n), number)
					: tab === 'log'
						? await clamped((n) => listLog(db, channel.id, n), number)
						: await moderationSettings(db, channel.id);
	return { page, admin: page.session.member, tab, order, initial };
}
