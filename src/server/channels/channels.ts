/** Channels: lookup by domain and slug, and the layout data of docs/reference/product-rules.md#data (header, content, footer). */
import type { ChannelRow as ConfiguredChannelRow } from './channel-rows';
import { waitUntil } from 'cloudflare:workers';
import { all, parseJsonColumn } from '@/server/platform/db';
import { createMemo } from '@/server/platform/memo';
import { asChannelLookup } from '@/server/platform/database';
import {
	BannerSchema,
	FooterConfigSchema,
	HeaderConfigSchema,
	LanguageSchema,
	ProviderSchema,
	SNS_KEYS,
	type Banner,
	type FooterConfig,
	type HeaderConfig,
	type Language,
	type Provider,
} from '@/schemas/channel';
import { pageUrls } from '@/lib/urls';
import { isSafeLink } from '@/lib/safe-url';
import { isModerationContact } from '@/server/channels/moderation-contact';
import { parseNewMemberLimits, type NewMemberLimits } from '@/server/spam/new-members';
import { contentVersionsOf, type ContentVersions, type VersionColumns } from '@/server/content-versions/versions';

/** A stored channel: the columns a community file sets (channel-rows.ts) and the counters the app keeps. */
interface ChannelRow extends ConfiguredChannelRow, VersionColumns {
	listed_count: number;
	database: string;
	moving_to: string | null;
}

/** A channel, with the versions that key its cached pages and API reads (src/server/content-versions/). */
export interface Channel extends ContentVersions {
	id: number;
	domain: string;
	slug: string;
	/** The path every route of the channel starts with: /{domain}/{slug}. */
	basePath: string;
	title: string;
	language: Language;
	themeType: 'LIGHT' | 'DARK';
	keyColor: string;
	backgroundColor: string;
	pcHeaderColor: string | null;
	pcHeaderImage: string | null;
	exposureType: string;
	exposureBoardId: number | null;
	header: HeaderConfig;
	footer: FooterConfig;
	banner: Banner | null;
	/** Limits for members in their first day (src/server/spam/new-members.ts). */
	newMemberLimits: NewMemberLimits;
	/** Where a member asks for a review of a hide or a ban (the file's `moderation.contact`); null when it names none. */
	moderationContact: string | null;
	listedCount: number;
	/** The binding of the database that holds the community's rows (docs/reference/databases.md). */
	database: string;
	/** While `npm run channel -- move` copies the community: the binding it goes to (writes are refused). */
	movingTo: string | null;
}

function toChannel(row: ChannelRow): Channel {
	const language = LanguageSchema.safeParse(row.language);
	return {
		id: row.id,
		domain: row.domain,
		slug: row.slug,
		basePath: `/${row.domain}/${row.slug}`,
		title: row.title,
		language: language.success ? language.data : 'en',
		themeType: row.theme_type,
		keyColor: row.key_color,
		backgroundColor: row.background_color,
		pcHeaderColor: row.pc_header_color,
		pcHeaderImage: row.pc_header_image !== null && isSafeLink(row.pc_header_image) ? row.pc_header_image : null,
		exposureType: row.exposure_type,
		exposureBoardId: row.exposure_board_id,
		header: HeaderConfigSchema.parse(parseJsonColumn(row.header_config, 'channels.header_config')),
		footer: FooterConfigSchema.parse(parseJsonColumn(row.footer_config, 'channels.footer_config')),
		banner: row.banner === null ? null : (BannerSchema.safeParse(parseJsonColumn(row.banner, 'channels.banner')).data ?? null),
		newMemberLimits: parseNewMemberLimits(row.new_member_limits),
		moderationContact: isModerationContact(row.moderation_contact ?? '') ? row.moderation_contact : null,
		listedCount: row.listed_count,
		database: row.database,
		movingTo: row.moving_to,
		...contentVersionsOf(row),
	};
}

export async function findChannel(db: Db, domain: string, slug: string): Promise<Channel | null> {
	const row = await asChannelLookup(() =>
		db.prepare('SELECT * FROM channels WHERE domain = ?1 AND slug = ?2').bind(domain, slug).first<ChannelRow>(),
	);
	return row ? toChannel(row) : null;
}

/** GET layouts/header: the channel header of docs/reference/product-rules.md#data with the header config and the banner. */
export function layoutHeader(channel: Channel) {
	return {
		title: channel.title,
		language: channel.language,
		themeType: channel.themeType,
		keyColor: channel.keyColor,
		backgroundColor: channel.backgroundColor,
		pcHeaderColor: channel.pcHeaderColor,
		pcHeaderImage: channel.pcHeaderImage,
		...channel.header,
		banner: channel.banner,
	};
}

/** GET layouts/content: how the channel's index route is exposed. */
export function layoutContent(channel: Channel) {
	return { exposureType: channel.exposureType, boardId: channel.exposureBoardId };
}

/** GET layouts/footer: the footer config, social links limited to the networks docs/reference/product-rules.md#main-layout names. */
export function layoutFooter(channel: Channel): FooterConfig {
	const sns = new Set<string>(SNS_KEYS);
	return { ...channel.footer, snsLinks: channel.footer.snsLinks.filter((link) => sns.has(link.key)) };
}

export async function listProviders(db: Db, channelId: number): Promise<Provider[]> {
	const rows = await all<{ provider: string }>(
		db.prepare('SELECT provider FROM channel_providers WHERE channel_id = ?1 ORDER BY sort_order').bind(channelId),
	);
	return rows.flatMap((row) => {
		const parsed = ProviderSchema.safeParse(row.provider);
		return parsed.success ? [parsed.data] : [];
	});
}

/** Where the channel's index route sends a reader, or null for the not-found page (docs/reference/product-rules.md#routes). */
export function indexTarget(channel: Channel): string | null {
	if (channel.exposureType === 'BOARD_SELECTION' && channel.exposureBoardId !== null) {
		return pageUrls(channel.basePath).board(channel.exposureBoardId);
	}
	if (channel.exposureType === 'ALL') return pageUrls(channel.basePath).boards;
	return null;
}

/** How long an isolate trusts its copy of a channel row (and so its versions) without asking D1. */
const CHANNEL_TTL_MS = 1000;
/**
 * How long a copy may still be answered while it is read again in the background, so that no
 * request waits for D1 behind a busy moment's writes; a change is seen within this time.
 */
const CHANNEL_STALE_MS = 2000;
/** Channels (and names that are none) an isolate remembers; more distinct names push out the oldest. */
export const CHANNEL_MEMO_ENTRIES = 512;
const channels = createMemo<Channel | null>(CHANNEL_MEMO_ENTRIES);

/**
 * The channel, remembered by this isolate: for one second a request reads no channel row; in the
 * next second the remembered row is answered at once while it is read again in the background, so
 * a hit never waits for D1; after that the read is waited for. A change made elsewhere is seen by
 * every reader within two seconds. A name that is no channel is remembered the same way, within
 * the memo's bound. The background read belongs to the request that started it (its waitUntil),
 * and only its settled row is shared (memo.ts). `db` is the directory (binding DB); a community
 * whose rows live in another database is read with resolveCommunity.
 */
export function resolveChannel(db: Db, domain: string, slug: string, now = Date.now()): Promise<Channel | null> {
	return resolveIn(DIRECTORY, db, domain, slug, now);
}

function resolveIn(binding: string, db: Db, domain: string, slug: string, now: number): Promise<Channel | null> {
	return channels.readRevalidating(
		`${binding}:${domain}/${slug}`,
		now,
		CHANNEL_TTL_MS,
		CHANNEL_STALE_MS,
		() => findChannel(db, domain, slug),
		waitUntil,
	);
}

/** The directory's binding: the communities, and which database holds each (docs/reference/databases.md). */
export const DIRECTORY = 'DB';
/** Where this isolate last found each community's rows (a binding), when not in the directory. */
const placements = new Map<string, string>();

/**
 * The community and its database (the request's D1 session on the binding that holds its rows), or
 * null when the path names none. The channel's row is read where this isolate last found it (the
 * directory at first), remembered as resolveChannel says; a row whose `database` names another
 * binding (the directory's row of a community that lives elsewhere, or the row a move left behind)
 * sends the lookup there. A cached request reads nothing; an isolate's first request for a
 * community outside the directory reads two channel rows (both counted as the channel lookup).
 */
export async function resolveCommunity(
	bindingOf: (name: string) => D1Database,
	open: (binding: D1Database) => Db,
	domain: string,
	slug: string,
	now = Date.now(),
): Promise<{ db: Db; channel: Channel } | null> {
	const key = `${domain}/${slug}`;
	for (let hops = 0; hops < 3; hops += 1) {
		const name = placements.get(key) ?? DIRECTORY;
		const db = open(bindingOf(name));
		const channel = await resolveIn(name, db, domain, slug, now);
		if (channel?.database === name) return { db, channel };
		placements.delete(key);
		// No row where it was last found (a move removed it): the directory knows where it went.
		if (!channel) {
			if (name === DIRECTORY) return null;
			continue;
		}
		if (channel.database !== DIRECTORY) {
			placements.set(key, channel.database);
			for (const oldest of placements.keys()) {
				if (placements.size <= CHANNEL_MEMO_ENTRIES) break;
				placements.delete(oldest);
			}
		}
	}
	throw new Error(`The community ${key} has no database that holds it`);
}

/**
 * Drops this isolate's copy of the channel after a write that bumped its content version, so the
 * writer's next page, served by the same isolate, is the new one at once (others within the second).
 */
export function forgetChannel(domain: string, slug: string): void {
	channels.forget(`${placements.get(`${domain}/${slug}`) ?? DIRECTORY}:${domain}/${slug}`);
}

/** How many channel names this isolate remembers (for the test of the memo's bound). */
export function rememberedChannelCount(): number {
	return channels.size;
}
