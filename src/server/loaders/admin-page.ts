/**
 * What the admin area loads: the channel page of one of its administrators, and the
 * first page of the tab asked for, read by the same services as the admin API. Anyone else (a
 * guest, a member, an administrator of another community, a banned one) gets the not-found page,
 * and the answer is never stored by a cache. The tab's reads go to D1 in the session's batch (one
 * round trip): they are made for any signed-in reader and thrown away unless the session is an
 * administrator's.
 */
import { isAdmin } from '@/lib/roles';
import type { AstroGlobal } from 'astro';
import { loadChannelPage, type ChannelPage } from './channel-page';
import type { SessionMember } from '@/server/sign-in/sessions';
import { closedReportsRead, reportQueueRead, type QueueOrder } from '@/server/moderation/reports-queue';
import { bansInForceRead } from '@/server/members/bans';
import { logPageRead } from '@/server/moderation/log';
import { moderationSettingsRead } from '@/server/moderation/settings';
import { lenientPage } from '@/schemas/params';

export const ADMIN_TABS = ['reports', 'history', 'bans', 'log', 'settings'] as const;
/** A tab of the admin area (src/islands/admin/AdminArea.tsx shows the same ones). */
export type AdminTab = (typeof ADMIN_TABS)[number];

export interface AdminPage {
	page: ChannelPage;
	admin: SessionMember;
	tab: AdminTab;
	order: QueueOrder;
	initial: unknown;
}

type Context = Pick<AstroGlobal, 'params' | 'request' | 'response' | 'locals' | 'csp' | 'url' | 'rewrite'>;

export async function loadAdminPage(astro: Context): Promise<AdminPage | Response> {
	const query = astro.url.searchParams;
	const tab = ADMIN_TABS.find((candidate) => candidate === query.get('tab')) ?? 'reports';
	const order: QueueOrder = query.get('order') === 'most' ? 'most' : 'newest';
	const number = lenientPage(query.get('page'));
	// The tab's page (the last one when the one asked for is past the end), read beside the session.
	const page = await loadChannelPage(astro, (db, channel, tokenHash) => {
		if (tokenHash === null) return {};
		const tabRead = {
			reports: () => reportQueueRead(db, channel.id, number, order, true),
			history: () => closedReportsRead(db, channel.id, number, true),
			bans: () => bansInForceRead(db, channel.id, number, Date.now(), true),
			log: () => logPageRead(db, channel.id, number, true),
			settings: () => moderationSettingsRead(db, channel.id),
		}[tab];
		return { initial: tabRead() };
	});
	astro.response.headers.set('Cache-Control', 'private, no-store');
	if (!page || page.session.kind !== 'member' || !isAdmin(page.session.member)) {
		const notFound = await astro.rewrite('/404');
		notFound.headers.set('Cache-Control', 'private, no-store');
		return notFound;
	}
	return { page, admin: page.session.member, tab, order, initial: page.read.initial };
}
