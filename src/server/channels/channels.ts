/** Channels: lookup by domain and slug, and the layout data of docs/product-rules.md#data (header, content, footer). */
import type { ChannelRow as ConfiguredChannelRow } from './channel-rows';
import { waitUntil } from 'cloudflare:workers';
import { AppError } from '@/server/platform/errors';
import { all, parseJsonColumn } from '@/server/platform/db';
import { createMemo } from '@/server/platform/memo';
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
import { parseNewMemberLimits, type NewMemberLimits } from '@/server/spam/new-members';

/** A stored channel: the columns a community file sets (channel-rows.ts) and the counters the app keeps. */
interface ChannelRow extends ConfiguredChannelRow {
	listed_count: number;
	content_version: number;
	post_versions: string;
	post_removal_versions: string;
	list_versions: string;
}

export interface Channel {
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
	listedCount: number;
	/**
	 * Moves when what every page shows changes (the layout: board tree, categories, settings; members'
	 * names): every cached page and API read of the channel goes cold. Lists have their own versions.
	 */
	contentVersion: number;
	/** The counters of the lists that were ever touched ("all", "b<board id>", "u<member bucket>"; listVersion reads them). */
	listVersions: ReadonlyMap<string, number>;
	/** The counters of the post-version buckets that were ever touched (postVersion reads them). */
	postVersions: ReadonlyMap<number, number>;
	/** The same for changes that take something away, a deletion or a hide (postRemovalVersion reads them). */
	postRemovalVersions: ReadonlyMap<number, number>;
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
		listedCount: row.listed_count,
		contentVersion: row.content_version,
		postVersions: parsePostVersions(row.post_versions, 'channels.post_versions'),
		postRemovalVersions: parsePostVersions(row.post_removal_versions, 'channels.post_removal_versions'),
		listVersions: parseListVersions(row.list_versions),
	};
}

/** The counters of channels.list_versions; anything else there counts as untouched. */
function parseListVersions(json: string): Map<string, number> {
	const versions = new Map<string, number>();
	const parsed = parseJsonColumn(json, 'channels.list_versions');
	if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return versions;
	for (const [list, counter] of Object.entries(parsed)) {
		if (Number.isSafeInteger(counter)) versions.set(list, counter as number);
	}
	return versions;
}

/**
 * A list a cached page or API read shows: All Posts (and the boards' counts), search results (which
 * also show the posts' text), one board's list, or one member's profile lists.
 */
export type ListScope = { kind: 'all' } | { kind: 'search' } | { kind: 'board'; boardId: number } | { kind: 'member'; memberId: number };

/** How many counters stand for all the members' profile lists of a channel (a member's bucket: its id mod this). */
export const MEMBER_LIST_BUCKETS = 1024;

function listKey(scope: ListScope): string {
	if (scope.kind === 'all' || scope.kind === 'search') return scope.kind;
	return scope.kind === 'board' ? `b${scope.boardId}` : `u${scope.memberId % MEMBER_LIST_BUCKETS}`;
}

/** The version of a list: moved by touchCache when a post enters, leaves or changes in it. */
export function listVersion(channel: Channel, scope: ListScope): number {
	return channel.listVersions.get(listKey(scope)) ?? 0;
}

/** How many counters stand for all the posts of a channel (a post's bucket: its id mod this). */
export const POST_VERSION_BUCKETS = 1024;

/** The bucket counters of channels.post_versions (or post_removal_versions); anything else there counts as untouched. */
function parsePostVersions(json: string, column: string): Map<number, number> {
	const versions = new Map<number, number>();
	const parsed = parseJsonColumn(json, column);
	if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return versions;
	for (const [bucket, counter] of Object.entries(parsed)) {
		if (Number.isSafeInteger(counter)) versions.set(Number(bucket), counter as number);
	}
	return versions;
}

/**
 * The version of one post's cached page and API reads: the counter of its bucket, moved by
 * touchPost for every change. Posts that share a bucket are made again together, which costs a
 * render and nothing else.
 */
export function postVersion(channel: Channel, postId: number): number {
	return channel.postVersions.get(postId % POST_VERSION_BUCKETS) ?? 0;
}

/** The version of what was taken away from one post's page (a comment deleted or hidden): moved by touchPost for a removal only. */
export function postRemovalVersion(channel: Channel, postId: number): number {
	return channel.postRemovalVersions.get(postId % POST_VERSION_BUCKETS) ?? 0;
}

export async function findChannel(db: D1Database, domain: string, slug: string): Promise<Channel | null> {
	const row = await db.prepare('SELECT * FROM channels WHERE domain = ?1 AND slug = ?2').bind(domain, slug).first<ChannelRow>();
	return row ? toChannel(row) : null;
}

/** @throws AppError ChannelNotFound */
export async function getChannel(db: D1Database, domain: string, slug: string): Promise<Channel> {
	const channel = await resolveChannel(db, domain, slug);
	if (!channel) throw new AppError('ChannelNotFound');
	return channel;
}

/** GET layouts/header: the channel header of docs/product-rules.md#data with the header config and the banner. */
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

/** GET layouts/footer: the footer config, social links limited to the networks docs/product-rules.md#main-layout names. */
export function layoutFooter(channel: Channel): FooterConfig {
	const sns = new Set<string>(SNS_KEYS);
	return { ...channel.footer, snsLinks: channel.footer.snsLinks.filter((link) => sns.has(link.key)) };
}

export async function listProviders(db: D1Database, channelId: number): Promise<Provider[]> {
	const rows = await all<{ provider: string }>(
		db.prepare('SELECT provider FROM channel_providers WHERE channel_id = ?1 ORDER BY sort_order').bind(channelId),
	);
	return rows.flatMap((row) => {
		const parsed = ProviderSchema.safeParse(row.provider);
		return parsed.success ? [parsed.data] : [];
	});
}

/** Where the channel's index route sends a reader, or null for the not-found page (docs/product-rules.md#routes). */
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
 * and only its settled row is shared (memo.ts).
 */
export function resolveChannel(db: D1Database, domain: string, slug: string, now = Date.now()): Promise<Channel | null> {
	return channels.readRevalidating(`${domain}/${slug}`, now, CHANNEL_TTL_MS, CHANNEL_STALE_MS, () => findChannel(db, domain, slug), waitUntil);
}

/**
 * Drops this isolate's copy of the channel after a write that bumped its content version, so the
 * writer's next page, served by the same isolate, is the new one at once (others within the second).
 */
export function forgetChannel(domain: string, slug: string): void {
	channels.forget(`${domain}/${slug}`);
}

/** How many channel names this isolate remembers (for the test of the memo's bound). */
export function rememberedChannelCount(): number {
	return channels.size;
}

/**
 * The statement that invalidates every cached page and API read of a channel; batch it with the
 * change. Only for what every page shows (the layout, members' names): a post's change uses touchCache.
 */
export function bumpContentVersion(db: D1Database, channelId: number): D1PreparedStatement {
	return db.prepare('UPDATE channels SET content_version = content_version + 1 WHERE id = ?1').bind(channelId);
}

/**
 * The statement that marks the cached pages and API reads of one post (its page, its comments) as
 * changed, after a change that does not alter any list: a comment written, edited, deleted or
 * hidden. Batch it with the change. It moves the counter of the post's bucket in the channel row
 * (one row written), which every isolate sees within the two seconds it answers its copy of that
 * row. An addition (a comment written or edited) lets guests be answered the page before it for
 * a few seconds while it is made again (functions/edge-cache.ts); a `removal` (a deletion, a
 * hide) also moves the bucket's removal counter, which keys the entries, so what was taken away is
 * never answered again. Lists and profiles keep their entries; the counts they show are allowed
 * to be up to a minute old.
 */
export function touchPost(db: D1Database, channelId: number, postId: number, change: 'addition' | 'removal'): D1PreparedStatement {
	const path = `$."${postId % POST_VERSION_BUCKETS}"`;
	const moved = (column: string) => `${column} = json_set(${column}, ?2, coalesce(json_extract(${column}, ?2), 0) + 1)`;
	const columns = change === 'removal' ? `${moved('post_versions')}, ${moved('post_removal_versions')}` : moved('post_versions');
	return db.prepare(`UPDATE channels SET ${columns} WHERE id = ?1`).bind(channelId, path);
}

/** What a post's change touches in the edge cache: the lists it entered, left or changed in, search, and the post's own reads. */
export interface CacheTouch {
	/** The boards whose lists changed (a post written, moved, retitled, deleted, hidden); All Posts moves with them. */
	boards?: readonly number[];
	/** The member whose profile lists changed (the post's author). */
	memberId?: number;
	/** The post's text changed (an edit): search results, which show it, go cold too. Implied by `boards`. */
	text?: boolean;
	/** The post whose own pages and API reads changed, and how (touchPost). */
	post?: { id: number; change: 'addition' | 'removal' };
}

/**
 * The one statement that marks what a post's change touched in the edge cache: the lists of its
 * boards, All Posts, search and its author's profile (channels.list_versions), and its own reads
 * (as touchPost). One row written (the channel's), whatever the change and the community's size.
 * Everything else keeps its entries: a body-only edit leaves every list, the layout and the other
 * posts' pages as they were. Batch it with the change.
 */
export function touchCache(db: D1Database, channelId: number, touch: CacheTouch): D1PreparedStatement {
	const lists: ListScope[] = [];
	if (touch.boards && touch.boards.length > 0) {
		lists.push({ kind: 'all' });
		for (const boardId of new Set(touch.boards)) lists.push({ kind: 'board', boardId });
	}
	if (touch.text || (touch.boards && touch.boards.length > 0)) lists.push({ kind: 'search' });
	if (touch.memberId !== undefined) lists.push({ kind: 'member', memberId: touch.memberId });
	const binds: (number | string)[] = [channelId];
	const bind = (value: number | string) => {
		binds.push(value);
		return `?${binds.length}`;
	};
	const moved = (column: string, paths: string[]) =>
		`${column} = json_set(${column}${paths
			.map((path) => {
				const at = bind(path);
				return `, ${at}, coalesce(json_extract(${column}, ${at}), 0) + 1`;
			})
			.join('')})`;
	const columns: string[] = [];
	if (lists.length > 0)
		columns.push(
			moved(
				'list_versions',
				lists.map((scope) => `$."${listKey(scope)}"`),
			),
		);
	if (touch.post) {
		const bucket = `$."${touch.post.id % POST_VERSION_BUCKETS}"`;
		columns.push(moved('post_versions', [bucket]));
		if (touch.post.change === 'removal') columns.push(moved('post_removal_versions', [bucket]));
	}
	if (columns.length === 0) throw new Error('touchCache: nothing to touch');
	return db.prepare(`UPDATE channels SET ${columns.join(', ')} WHERE id = ?1`).bind(...binds);
}
