/**
 * A member's data export: everything a member wrote and did in one community, as one
 * JSON file, streamed. The file is written as it is read: each table is read by keyset (its id,
 * ascending) a page at a time, and each page is turned into JSON and handed to the response before
 * the next is read, so memory holds one page whatever the member's history, and the number of D1
 * queries follows the member's own rows: for a member with 50,000 comments and little else,
 * 25 comment pages + 9 other reads = 34 queries (D1 allows 50 per invocation on the free plan,
 * 1,000 on the paid one; tests/workers/export.test.ts counts them).
 *
 * What is in it: the profile (nickname, role, sign-in providers, dates, the avatar's URLs, former nicknames), posts
 * (the body as its document, its images' URLs, its state), comments, likes (the post id and when),
 * comment likes (the comment, its post and when),
 * saved posts (the post id and when, at most 1,000: one query), the members blocked (the member's id and when),
 * the reports the member made (what, why, when, and whether moderators have closed them), drafts
 * and the earlier versions of their posts and comments (edit history).
 * The member's own removed content is theirs and is included, marked: a post or comment hidden by an
 * administrator (`hiddenByAdmin`) or deleted by the member (`deletedAt`), as it is still stored.
 * Nothing of anyone else: no other member's post titles (a liked post is its id; it may have
 * become private or hidden since), no moderator's identity or note, no ban reason.
 */
import { AppError } from '@/server/platform/errors';
import { parseJsonColumn } from '@/server/platform/db';
import { AVATAR_SIZES, avatarUrl } from '@/lib/avatars';

/** One member starts at most one export per interval (three an hour). */
export const EXPORT_INTERVAL_MS = 20 * 60 * 1000;

/**
 * Rows per query, by table: a comment is at most 1,000 characters (≤ 4 KB), so 2,000 are ≤ 8 MB;
 * likes and nickname rows are a few numbers. Posts and drafts, whose bodies have no small bound
 * (a row may reach D1's 2 MB), are read by their ids first and then by ranges of at most
 * BODY_BYTES of text (one row at least).
 */
const EXPORT_PAGE_ROWS = {
	comments: 2000,
	likes: 5000,
	commentLikes: 5000,
	saved: 1000,
	blocks: 500,
	reports: 2000,
	nicknames: 1000,
	ids: 1000,
} as const;
const BODY_BYTES = 8 * 1024 * 1024;

export interface ExportSubject {
	channel: { id: number; domain: string; slug: string; title: string };
	memberId: number;
	/** The site's origin, for the images' absolute URLs. */
	origin: string;
}

/**
 * Marks the start of an export, or refuses it when the member started one within the interval.
 * One row written, in one batch with the read of the start that refuses it (one round trip).
 * @throws AppError TooManyRequests (retryAfter: seconds until the next export may start)
 */
export async function claimExport(db: Db, channelId: number, memberId: number, now: number): Promise<void> {
	const [claimed, stored] = await db.batch([
		db
			.prepare(
				'UPDATE members SET last_export_at = ?3 WHERE id = ?1 AND channel_id = ?2 AND (last_export_at IS NULL OR last_export_at <= ?4 OR last_export_at > ?3)',
			)
			.bind(memberId, channelId, now, now - EXPORT_INTERVAL_MS),
		db.prepare('SELECT last_export_at FROM members WHERE id = ?1').bind(memberId),
	]);
	if (claimed?.meta.changes === 1) return;
	const last = (stored?.results[0] as { last_export_at: number | null } | undefined)?.last_export_at ?? null;
	const retryAfter = Math.max(1, Math.ceil(((last ?? now) + EXPORT_INTERVAL_MS - now) / 1000));
	throw new AppError('TooManyRequests', undefined, { retryAfter });
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The `src` of every image block of a stored document, as absolute URLs. */
function imageUrls(document: unknown, origin: string): string[] {
	const blocks = (document as { blocks?: unknown }).blocks;
	if (!Array.isArray(blocks)) return [];
	const urls: string[] = [];
	for (const block of blocks as { type?: unknown; src?: unknown }[]) {
		if (block?.type !== 'image' || typeof block.src !== 'string') continue;
		try {
			urls.push(new URL(block.src, origin).href);
		} catch {
			urls.push(block.src);
		}
	}
	return urls;
}

interface PostRow {
	id: number;
	board_id: number;
	subject_id: number | null;
	title: string;
	content: string;
	template: string;
	is_notice: number;
	is_private: number;
	hidden_by_admin: number;
	like_count: number;
	comment_count: number;
	view_count: number;
	created_at: number;
	edited_at: number | null;
	deleted_at: number | null;
}

/** An earlier version of the member's post or comment (src/server/revisions/revisions.ts). */
interface RevisionRow {
	content_type: 'POST' | 'COMMENT';
	content_id: number;
	title: string | null;
	content: string;
	written_at: number;
	replaced_at: number;
}

interface DraftRow {
	id: number;
	board_id: number | null;
	subject_id: number | null;
	title: string;
	content: string;
	template: string;
	created_at: number;
	updated_at: number;
}

/**
 * The rows of `table` that belong to the member, in id order, as pages of at most BODY_BYTES of
 * text: first the ids and sizes (EXPORT_PAGE_ROWS.ids a query), then each run of ids that fits.
 */
async function* sizedRows<T>(db: Db, table: 'posts' | 'drafts' | 'revisions', columns: string, subject: ExportSubject): AsyncGenerator<T[]> {
	let after = 0;
	for (;;) {
		const ids = (
			await db
				.prepare(
					`SELECT id, length(CAST(coalesce(title, '') AS BLOB)) + length(CAST(content AS BLOB)) AS size FROM ${table} WHERE member_id = ?1 AND channel_id = ?2 AND id > ?3 ORDER BY id LIMIT ?4`,
				)
				.bind(subject.memberId, subject.channel.id, after, EXPORT_PAGE_ROWS.ids)
				.all<{ id: number; size: number }>()
		).results;
		let start = 0;
		while (start < ids.length) {
			let end = start;
			let bytes = ids[start]!.size;
			while (end + 1 < ids.length && bytes + ids[end + 1]!.size <= BODY_BYTES) bytes += ids[++end]!.size;
			const rows = await db
				.prepare(`SELECT ${columns} FROM ${table} WHERE member_id = ?1 AND channel_id = ?2 AND id BETWEEN ?3 AND ?4 ORDER BY id`)
				.bind(subject.memberId, subject.channel.id, ids[start]!.id, ids[end]!.id)
				.all<T>();
			yield rows.results;
			start = end + 1;
		}
		if (ids.length < EXPORT_PAGE_ROWS.ids) return;
		after = ids[ids.length - 1]!.id;
	}
}

/**
 * The member's rows of a keyset query, a page at a time. `sql` binds the member as ?1, the channel
 * as ?2, the last key as ?3 (and ?4 for a second key column) and the page size as ?5; `key` reads
 * the key from a row.
 */
async function* keysetRows<T>(db: Db, sql: string, subject: ExportSubject, size: number, key: (row: T) => [number, number]): AsyncGenerator<T[]> {
	let last: [number, number] = [-1, -1];
	for (;;) {
		// One more row than the page says whether another page follows, without an empty read at the end.
		const rows = (
			await db
				.prepare(sql)
				.bind(subject.memberId, subject.channel.id, last[0], last[1], size + 1)
				.all<T>()
		).results;
		const page = rows.slice(0, size);
		if (page.length > 0) yield page;
		if (rows.length <= size) return;
		last = key(page[page.length - 1]!);
	}
}

/** The export's entry of the member's avatar: the stored sizes' URLs and when; null without a picture. */
function avatarExport(sizes: number | null, updatedAt: number | null, channelUrl: string, memberId: number) {
	if (!sizes) return null;
	const urls = AVATAR_SIZES.filter((_, bit) => (sizes & (1 << bit)) !== 0).map((size) => avatarUrl(channelUrl, memberId, size));
	return { urls, updatedAt: iso(updatedAt) };
}

/** The export's JSON text, a piece at a time: its head, then each section's pages. */
async function* exportPieces(db: Db, subject: ExportSubject, now: number): AsyncGenerator<string> {
	const { channel, memberId, origin } = subject;
	const member = await db
		.prepare(
			`SELECT m.id, m.nickname, m.role, m.provider, m.recent_provider, m.joined_at, m.terms_agreed_at, m.privacy_agreed_at,
				m.notification_email, m.notification_email_pending, m.notification_email_confirmed_at, a.sizes AS avatar_sizes, a.updated_at AS avatar_updated_at
			 FROM members m LEFT JOIN member_avatars a ON a.member_id = m.id WHERE m.id = ?1 AND m.channel_id = ?2`,
		)
		.bind(memberId, channel.id)
		.first<{
			id: number;
			nickname: string | null;
			role: string;
			provider: string;
			recent_provider: string;
			joined_at: number;
			terms_agreed_at: number | null;
			privacy_agreed_at: number | null;
			notification_email: string | null;
			notification_email_pending: string | null;
			notification_email_confirmed_at: number | null;
			avatar_sizes: number | null;
			avatar_updated_at: number | null;
		}>();
	if (!member) throw new AppError('LoginRequired');
	const head = {
		format: 'community-board member export',
		version: 1,
		exportedAt: iso(now),
		community: { domain: channel.domain, slug: channel.slug, title: channel.title, url: `${origin}/${channel.domain}/${channel.slug}` },
		profile: {
			userId: member.id,
			nickname: member.nickname,
			role: member.role,
			provider: member.provider,
			recentProvider: member.recent_provider,
			joinedAt: iso(member.joined_at),
			termsAgreedAt: iso(member.terms_agreed_at),
			privacyAgreedAt: iso(member.privacy_agreed_at),
			// The address for notification emails (docs/reference/notifications.md#email) and when it was confirmed.
			notificationEmail: member.notification_email,
			notificationEmailPending: member.notification_email_pending,
			notificationEmailConfirmedAt: iso(member.notification_email_confirmed_at),
			// The member's picture (docs/reference/avatars.md): its URLs by size and when it was set; null when none is.
			avatar: avatarExport(member.avatar_sizes, member.avatar_updated_at, `${origin}/${channel.domain}/${channel.slug}`, member.id),
		},
	};
	yield JSON.stringify(head).slice(0, -1);

	const section = async function* <T>(name: string, pages: AsyncGenerator<T[]>, item: (row: T) => unknown): AsyncGenerator<string> {
		yield `,\n"${name}":[`;
		let first = true;
		for await (const rows of pages) {
			if (rows.length === 0) continue;
			yield `${first ? '\n' : ',\n'}${rows.map((row) => JSON.stringify(item(row))).join(',\n')}`;
			first = false;
		}
		yield '\n]';
	};

	yield* section(
		'nicknames',
		keysetRows<{ nickname: string; claimed_at: number; released_at: number | null; rowid: number }>(
			db,
			'SELECT rowid, nickname, claimed_at, released_at FROM nickname_claims WHERE member_id = ?1 AND channel_id = ?2 AND rowid > ?3 AND ?4 = ?4 ORDER BY rowid LIMIT ?5',
			subject,
			EXPORT_PAGE_ROWS.nicknames,
			(row) => [row.rowid, 0],
		),
		(row) => ({ nickname: row.nickname, claimedAt: iso(row.claimed_at), releasedAt: iso(row.released_at) }),
	);
	yield* section(
		'posts',
		sizedRows<PostRow>(
			db,
			'posts',
			'id, board_id, subject_id, title, content, template, is_notice, is_private, hidden_by_admin, like_count, comment_count, view_count, created_at, edited_at, deleted_at',
			subject,
		),
		(row) => {
			const content = parseJsonColumn(row.content, 'posts.content');
			return {
				postId: row.id,
				url: `${origin}/${channel.domain}/${channel.slug}/posts/${row.id}`,
				boardId: row.board_id,
				categoryId: row.subject_id,
				title: row.title,
				content,
				images: imageUrls(content, origin),
				template: row.template,
				notice: row.is_notice === 1,
				private: row.is_private === 1,
				hiddenByAdmin: row.hidden_by_admin === 1,
				likeCount: row.like_count,
				commentCount: row.comment_count,
				viewCount: row.view_count,
				createdAt: iso(row.created_at),
				editedAt: iso(row.edited_at),
				deletedAt: iso(row.deleted_at),
			};
		},
	);
	yield* section(
		'comments',
		keysetRows<{
			id: number;
			post_id: number;
			parent_id: number | null;
			content: string;
			created_at: number;
			edited_at: number | null;
			deleted_at: number | null;
			hidden_by_admin: number;
		}>(
			db,
			'SELECT id, post_id, parent_id, content, created_at, edited_at, deleted_at, hidden_by_admin FROM comments WHERE member_id = ?1 AND channel_id = ?2 AND id > ?3 AND ?4 = ?4 ORDER BY id LIMIT ?5',
			subject,
			EXPORT_PAGE_ROWS.comments,
			(row) => [row.id, 0],
		),
		(row) => ({
			commentId: row.id,
			postId: row.post_id,
			parentId: row.parent_id,
			content: row.content,
			hiddenByAdmin: row.hidden_by_admin === 1,
			createdAt: iso(row.created_at),
			editedAt: iso(row.edited_at),
			deletedAt: iso(row.deleted_at),
		}),
	);
	yield* section(
		'likes',
		keysetRows<{ post_id: number; created_at: number }>(
			db,
			'SELECT post_id, created_at FROM post_likes WHERE member_id = ?1 AND channel_id = ?2 AND (created_at, post_id) > (?3, ?4) ORDER BY created_at, post_id LIMIT ?5',
			subject,
			EXPORT_PAGE_ROWS.likes,
			(row) => [row.created_at, row.post_id],
		),
		(row) => ({ postId: row.post_id, likedAt: iso(row.created_at) }),
	);
	// The comments liked (docs/reference/best-comments.md): their ids and posts, as a liked post is its id.
	yield* section(
		'commentLikes',
		keysetRows<{ comment_id: number; post_id: number; created_at: number }>(
			db,
			'SELECT comment_id, post_id, created_at FROM comment_likes WHERE member_id = ?1 AND channel_id = ?2 AND (created_at, comment_id) > (?3, ?4) ORDER BY created_at, comment_id LIMIT ?5',
			subject,
			EXPORT_PAGE_ROWS.commentLikes,
			(row) => [row.created_at, row.comment_id],
		),
		(row) => ({ commentId: row.comment_id, postId: row.post_id, likedAt: iso(row.created_at) }),
	);
	// The members blocked: their ids alone (at most BLOCKS_KEPT, one page), as a liked post is its id.
	yield* section(
		'blocks',
		keysetRows<{ blocked_id: number; created_at: number }>(
			db,
			'SELECT blocked_id, created_at FROM member_blocks WHERE blocker_id = ?1 AND channel_id = ?2 AND (blocked_id, ?4) > (?3, ?4) ORDER BY blocked_id LIMIT ?5',
			subject,
			EXPORT_PAGE_ROWS.blocks,
			(row) => [row.blocked_id, 0],
		),
		(row) => ({ userId: row.blocked_id, blockedAt: iso(row.created_at) }),
	);
	yield* section(
		'saved',
		keysetRows<{ post_id: number; saved_at: number }>(
			db,
			'SELECT post_id, saved_at FROM saved_posts WHERE member_id = ?1 AND channel_id = ?2 AND (saved_at, post_id) > (?3, ?4) ORDER BY saved_at, post_id LIMIT ?5',
			subject,
			EXPORT_PAGE_ROWS.saved,
			(row) => [row.saved_at, row.post_id],
		),
		(row) => ({ postId: row.post_id, savedAt: iso(row.saved_at) }),
	);
	yield* section(
		'reports',
		keysetRows<{ id: number; target_type: string; target_id: number; reason_code: string; reason_text: string; created_at: number; status: string }>(
			db,
			'SELECT id, target_type, target_id, reason_code, reason_text, created_at, status FROM reports WHERE reporter_id = ?1 AND channel_id = ?2 AND id > ?3 AND ?4 = ?4 ORDER BY id LIMIT ?5',
			subject,
			EXPORT_PAGE_ROWS.reports,
			(row) => [row.id, 0],
		),
		(row) => ({
			reportId: row.id,
			targetType: row.target_type,
			targetId: row.target_id,
			reason: row.reason_code,
			detail: row.reason_text,
			status: row.status,
			reportedAt: iso(row.created_at),
		}),
	);
	yield* section(
		'drafts',
		sizedRows<DraftRow>(db, 'drafts', 'id, board_id, subject_id, title, content, template, created_at, updated_at', subject),
		(row) => {
			const content = parseJsonColumn(row.content, 'drafts.content');
			return {
				draftId: row.id,
				boardId: row.board_id,
				categoryId: row.subject_id,
				title: row.title,
				content,
				images: imageUrls(content, origin),
				template: row.template,
				createdAt: iso(row.created_at),
				updatedAt: iso(row.updated_at),
			};
		},
	);
	yield* section(
		'revisions',
		sizedRows<RevisionRow>(db, 'revisions', 'content_type, content_id, title, content, written_at, replaced_at', subject),
		(row) => ({
			type: row.content_type,
			id: row.content_id,
			...(row.title === null ? {} : { title: row.title }),
			content: row.content,
			writtenAt: iso(row.written_at),
			replacedAt: iso(row.replaced_at),
		}),
	);
	yield '\n}\n';
}

/**
 * The export as a byte stream that reads a page only when the reader has taken the previous one
 * (pull), so a slow download never piles pages up in memory.
 */
export function exportStream(db: Db, subject: ExportSubject, now: number): ReadableStream<Uint8Array> {
	const pieces = exportPieces(db, subject, now);
	const encoder = new TextEncoder();
	return new ReadableStream<Uint8Array>(
		{
			async pull(controller) {
				const next = await pieces.next();
				if (next.done) controller.close();
				else controller.enqueue(encoder.encode(next.value));
			},
			async cancel() {
				await pieces.return(undefined);
			},
		},
		{ highWaterMark: 0 },
	);
}

/** The file's name: the community and the member, ASCII only. */
export function exportFileName(subject: ExportSubject, now: number): string {
	const day = new Date(now).toISOString().slice(0, 10);
	return `${subject.channel.domain}-${subject.channel.slug}-member-${subject.memberId}-${day}.json`;
}
