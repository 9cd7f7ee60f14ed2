/** What every channel page loads first: the channel from the path, its layout data and texts. */
import { env } from 'cloudflare:workers';
import { resolveChannel, type Channel } from './channels';
import { loadLayout, type LayoutData } from './layout';
import { translator, type Translate } from '../i18n';
import { PathSegmentSchema } from '../schemas/params';

export interface ChannelPage {
	db: D1Database;
	channel: Channel;
	layout: LayoutData;
	t: Translate;
}

/** The channel page context, or null when the path names no channel. */
export async function loadChannelPage(params: Record<string, string | undefined>): Promise<ChannelPage | null> {
	const domain = PathSegmentSchema.safeParse(params['domain']);
	const slug = PathSegmentSchema.safeParse(params['slug']);
	if (!domain.success || !slug.success) return null;
	const db = env.DB;
	const channel = await resolveChannel(db, domain.data, slug.data);
	if (!channel) return null;
	return { db, channel, layout: await loadLayout(db, channel), t: translator(channel.language) };
}
