/**
 * The rows part of `npm run bench` for the routes members got with saved posts, blocks, edit history,
 * comment likes, Popular, Best comments, avatars and live threads (docs/decisions/performance.md#the-newer-routes-rows):
 * each route's service run on the bench's local D1 (the large community), with what D1 says it read and
 * wrote and how many round trips it took (a statement or a batch each). What a route adds around its
 * service, the session's read, is the same for every route (tests/round-trip-budget.ts). Every write is
 * undone after it is measured (a save by its unsave, a block by its unblock, a like by its unlike), so
 * runs on the same data measure the same thing. Prints one JSON line. Usage: main(['--persist-to', dir]).
 */
import { parseArgs } from 'node:util';
import { SAVED_PAGE_SIZE, savedPostsRead, savePost, unsavePost } from '@/server/saved/saved';
import { blockMember, listBlocks, unblockMember } from '@/server/members/blocks';
import { listRevisions } from '@/server/revisions/revisions';
import { likeComment, unlikeComment } from '@/server/likes/comment-likes';
import { popularPostsRead } from '@/server/posts/popular';
import { listChannelPosts } from '@/server/posts/lists';
import { listComments } from '@/server/comments/pages';
import { storeAvatar } from '@/server/members/avatars';
import { assertLivePost } from '@/server/live/rooms';
import { run } from '@/server/platform/reads';
import { GUEST } from '@/server/visibility/visibility';
import { PAGE_SIZE } from '@/schemas/params';
import type { SessionMember } from '@/server/sign-in/sessions';
import { serveAvatarFile } from '@functions/shell/avatar-files';
import { withSize } from '../../tests/fixtures/images';
import { openDatabase } from './database';
import { metered, type Cost } from './metered';

const CHANNEL = { id: 9, domain: 'bench', slug: 'large' };
const BOARD = 91;
/** The deep pages measured: All Posts' 2,000th page and Popular after its 10,000th post (the last ones of a smaller community). */
const DEEP_PAGE = 2000;
const DEEP_POPULAR = 10_000;
/** Revisions a post or comment keeps at most (docs/reference/edit-history.md): the list measured is a full one. */
const REVISIONS = 20;

/** A route's cost: rows as D1 counts them, and its round trips to D1. */
type RouteCost = Required<Pick<Cost, 'rowsRead' | 'rowsWritten' | 'trips'>>;

/** What each route's service costs on the bench community, with the post and the community it was measured on. */
export async function routeCosts(db: Db, uploads: R2Bucket): Promise<{ listed: number; commentsOnPost: number; routes: Record<string, RouteCost> }> {
	const one = <T>(sql: string, ...bound: unknown[]) =>
		db
			.prepare(sql)
			.bind(...bound)
			.first<T>();
	const people = await db
		.prepare("SELECT id, nickname FROM members WHERE channel_id = ?1 AND role = 'MEMBER' AND withdrawn_at IS NULL ORDER BY id DESC LIMIT 2")
		.bind(CHANNEL.id)
		.all<{ id: number; nickname: string }>();
	const [reader, other] = people.results;
	// The newest post of the board with the most comments among the newest 200: the Best order's and the live room's.
	const post = await one<{ id: number; comments: number; listed: number }>(
		`SELECT p.id, p.comment_count AS comments, (SELECT listed_count FROM channels WHERE id = ?1) AS listed FROM posts p
		 WHERE p.id IN (SELECT id FROM posts WHERE board_id = ?2 AND board_seq IS NOT NULL AND member_id <> ?3 ORDER BY id DESC LIMIT 200)
		 ORDER BY p.comment_count DESC, p.id DESC LIMIT 1`,
		CHANNEL.id,
		BOARD,
		reader?.id ?? 0,
	);
	const comment = await one<{ id: number; member_id: number }>(
		'SELECT id, member_id FROM comments WHERE post_id = ?1 AND member_id <> ?2 AND deleted_at IS NULL ORDER BY id LIMIT 1',
		post?.id ?? 0,
		reader?.id ?? 0,
	);
	if (!reader || !other || !post || !comment) throw new Error('The bench community is empty: run the bench seed first');
	const member: SessionMember = {
		userId: reader.id,
		nickname: reader.nickname,
		role: 'MEMBER',
		provider: 'GOOGLE',
		recentProvider: 'GOOGLE',
		joinedAt: 0,
	};
	const now = Date.now();
	// A full edit history of the post and of the comment, written once (the bench's data, not measured).
	for (const [type, id, author] of [
		['POST', post.id, null],
		['COMMENT', comment.id, comment.member_id],
	] as const)
		await db
			.prepare(
				`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?4 - (SELECT count(*) FROM revisions WHERE content_type = ?2 AND content_id = ?3))
				 INSERT INTO revisions (channel_id, content_type, content_id, member_id, title, content, written_at, replaced_at)
				 SELECT ?1, ?2, ?3, coalesce(?5, (SELECT member_id FROM posts WHERE id = ?3)), CASE ?2 WHEN 'POST' THEN 'An earlier title ' || i END,
					'An earlier version of the text, ' || i, ?6 - 1000 * (i + 1), ?6 - 1000 * i FROM n
				 WHERE (SELECT count(*) FROM revisions WHERE content_type = ?2 AND content_id = ?3) < ?4`,
			)
			.bind(CHANNEL.id, type, id, REVISIONS, author, now)
			.run();
	// The 10,000th post, or one two pages before the end of a smaller community.
	const popularDepth = Math.max(0, Math.min(DEEP_POPULAR, post.listed - PAGE_SIZE * 2));
	const popularAfter = await one<{ id: number }>(
		'SELECT id FROM posts WHERE board_id = ?1 AND board_seq IS NOT NULL ORDER BY hot DESC, id DESC LIMIT 1 OFFSET ?2',
		BOARD,
		popularDepth,
	);
	const allAfter = await one<{ id: number }>(
		'SELECT id FROM posts WHERE channel_id = ?1 AND channel_seq IS NOT NULL ORDER BY hot DESC, id DESC LIMIT 1 OFFSET ?2',
		CHANNEL.id,
		popularDepth,
	);
	const deepPage = Math.max(1, Math.min(DEEP_PAGE, Math.ceil(post.listed / PAGE_SIZE)));
	// The avatar's day counter starts again, so that runs on the same data are never refused.
	await db.prepare('DELETE FROM member_avatars WHERE member_id = ?1').bind(reader.id).run();

	const routes: Record<string, RouteCost> = {};
	const measure = async (name: string, work: (metered: Db) => Promise<unknown>) => {
		const cost: RouteCost = { rowsRead: 0, rowsWritten: 0, trips: 0 };
		await work(metered(db, cost));
		routes[name] = cost;
	};
	const ids = { postId: post.id, commentId: comment.id };
	await measure('save a post', (m) => savePost(m, CHANNEL.id, member, post.id, now));
	await measure('unsave it', (m) => unsavePost(m, CHANNEL.id, member, post.id, now));
	// My Page → Saved with more than a page saved (SAVED_PAGE_SIZE), taken back after.
	const saved = (sql: string) => db.prepare(sql).bind(reader.id, CHANNEL.id, now).run();
	await saved(
		`INSERT OR IGNORE INTO saved_posts (member_id, post_id, channel_id, saved_at)
		 SELECT ?1, id, ?2, ?3 - id FROM posts WHERE channel_id = ?2 AND channel_seq IS NOT NULL ORDER BY id DESC LIMIT ${SAVED_PAGE_SIZE * 2}`,
	);
	await measure(`My Page → Saved's first page (${SAVED_PAGE_SIZE * 2} saved)`, (m) => run(m, savedPostsRead(m, CHANNEL.id, member, null)));
	await saved('DELETE FROM saved_posts WHERE member_id = ?1 AND channel_id = ?2 AND saved_at > ?3 - 1e15');
	await measure('block a member', (m) => blockMember(m, CHANNEL.id, reader.id, other.id, now));
	await measure('the blocks list', (m) => listBlocks(m, CHANNEL.id, reader.id));
	await measure('unblock them', (m) => unblockMember(m, CHANNEL.id, reader.id, other.id));
	await measure(`a post's revisions (${REVISIONS})`, (m) => listRevisions(m, CHANNEL.id, GUEST, post.id, null));
	await measure(`a comment's revisions (${REVISIONS})`, (m) => listRevisions(m, CHANNEL.id, GUEST, post.id, comment.id));
	await measure('like a comment', (m) => likeComment(m, CHANNEL.id, member, ids, now));
	await measure('unlike it', (m) => unlikeComment(m, CHANNEL.id, member, ids, now));
	await measure("a board's Popular, first page", (m) => run(m, popularPostsRead(m, CHANNEL.id, { kind: 'board', boardId: BOARD }, null)));
	await measure(`a board's Popular, after its ${popularDepth.toLocaleString('en')}th post`, (m) =>
		run(m, popularPostsRead(m, CHANNEL.id, { kind: 'board', boardId: BOARD }, popularAfter?.id ?? null)),
	);
	await measure("All Posts' Popular, first page", (m) => run(m, popularPostsRead(m, CHANNEL.id, { kind: 'all' }, null)));
	await measure(`All Posts' Popular, after its ${popularDepth.toLocaleString('en')}th post`, (m) =>
		run(m, popularPostsRead(m, CHANNEL.id, { kind: 'all' }, allAfter?.id ?? null)),
	);
	await measure('All Posts, first page', (m) => listChannelPosts(m, CHANNEL.id, 1, post.listed));
	await measure(`All Posts, page ${deepPage.toLocaleString('en')}`, (m) => listChannelPosts(m, CHANNEL.id, deepPage, post.listed));
	await measure(`Best-ordered comments, first page (${post.comments} comments)`, (m) => listComments(m, CHANNEL.id, post.id, GUEST, null, 'best'));
	const avatar = withSize('webp-lossy', 256, 256);
	await measure('an avatar upload (one size)', (m) => storeAvatar(m, uploads, CHANNEL, reader.id, 256, avatar, now));
	// Its serving takes no database (the stable URL is answered from R2): measured as the others, it reads nothing.
	await measure('its serving (/avatars/{member})', async () => {
		const answer = await serveAvatarFile(new Request(`https://bench.invalid/${CHANNEL.domain}/${CHANNEL.slug}/avatars/${reader.id}?s=256`), uploads);
		if (answer?.status !== 200) throw new Error(`the avatar answered ${answer?.status}`);
		await answer.arrayBuffer();
	});
	await measure("the live room's open (a guest's check of the post)", (m) => assertLivePost(m, CHANNEL.id, post.id, GUEST));
	return { listed: post.listed, commentsOnPost: post.comments, routes };
}

export async function main(argv: string[]): Promise<number> {
	const { values } = parseArgs({ args: argv, options: { 'persist-to': { type: 'string' } } });
	const { db, buckets, close } = await openDatabase({ remote: false, persistTo: values['persist-to'], buckets: ['UPLOADS'] });
	try {
		console.log(JSON.stringify(await routeCosts(db, buckets['UPLOADS']!)));
		return 0;
	} finally {
		await close();
	}
}
