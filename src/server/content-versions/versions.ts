/**
 * Content versions: the counters in a channel's row that key its cached pages and API reads
 * (functions/shell/edge-cache.ts), and the statements that move them in the batch of each change. The
 * content version moves with what every page shows (the layout, members' names); a list's version
 * with the posts it shows; a post's bucket with its page and comments. A change moves only what it
 * touched, and everything else keeps its entries.
 */
import { parseJsonColumn } from '@/server/platform/db';

/** The columns of the channel row that hold its versions. */
export interface VersionColumns {
	content_version: number;
	post_versions: string;
	post_removal_versions: string;
	list_versions: string;
}

/** A channel's versions, as the channel (src/server/channels/channels.ts) carries them. */
export interface ContentVersions {
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

/** The versions of a channel row. */
export function contentVersionsOf(row: VersionColumns): ContentVersions {
	return {
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
export function listVersion(channel: ContentVersions, scope: ListScope): number {
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
export function postVersion(channel: ContentVersions, postId: number): number {
	return channel.postVersions.get(postId % POST_VERSION_BUCKETS) ?? 0;
}

/** The version of what was taken away from one post's page (a comment deleted or hidden): moved by touchPost for a removal only. */
export function postRemovalVersion(channel: ContentVersions, postId: number): number {
	return channel.postRemovalVersions.get(postId % POST_VERSION_BUCKETS) ?? 0;
}

/**
 * The statement that invalidates every cached page and API read of a channel; batch it with the
 * change. Only for what every page shows (the layout, members' names): a post's change uses touchCache.
 */
export function bumpContentVersion(db: Db, channelId: number): D1PreparedStatement {
	return db.prepare('UPDATE channels SET content_version = content_version + 1 WHERE id = ?1').bind(channelId);
}

/**
 * The statement that marks the cached pages and API reads of one post (its page, its comments) as
 * changed, after a change that does not alter any list: a comment written, edited, deleted or
 * hidden. Batch it with the change. It moves the counter of the post's bucket in the channel row
 * (one row written), which every isolate sees within the two seconds it answers its copy of that
 * row. An addition (a comment written or edited) lets guests be answered the page before it for
 * a few seconds while it is made again (functions/shell/edge-cache.ts); a `removal` (a deletion, a
 * hide) also moves the bucket's removal counter, which keys the entries, so what was taken away is
 * never answered again. Lists and profiles keep their entries; the counts they show are allowed
 * to be up to a minute old. `condition` (SQL without parameters, as touchCache's) leaves the row
 * alone unless it holds.
 */
export function touchPost(db: Db, channelId: number, postId: number, change: 'addition' | 'removal', condition?: string): D1PreparedStatement {
	const path = `$."${postId % POST_VERSION_BUCKETS}"`;
	const moved = (column: string) => `${column} = json_set(${column}, ?2, coalesce(json_extract(${column}, ?2), 0) + 1)`;
	const columns = change === 'removal' ? `${moved('post_versions')}, ${moved('post_removal_versions')}` : moved('post_versions');
	return db.prepare(`UPDATE channels SET ${columns} WHERE id = ?1${condition === undefined ? '' : ` AND (${condition})`}`).bind(channelId, path);
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
 * posts' pages as they were. Batch it with the change; `condition` (SQL without parameters, such
 * as `changes() = 1` right after a write that may change nothing) leaves the row alone unless it holds.
 */
export function touchCache(db: Db, channelId: number, touch: CacheTouch, condition?: string): D1PreparedStatement {
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
	return db.prepare(`UPDATE channels SET ${columns.join(', ')} WHERE id = ?1${condition ? ` AND (${condition})` : ''}`).bind(...binds);
}
