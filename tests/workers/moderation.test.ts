/**
 * Hiding by an administrator (src/server/moderation/hide.ts): who may, what a hide changes (the
 * state, the lists, the comment count) and the invalidation it batches, with its rows bounded.
 */
import { describe, expect, it } from 'vitest';
import { env } from 'cloudflare:workers';
import { hideComment, hidePost } from '@/server/moderation/hide';
import { createComment } from '@/server/comments/writing';
import { POST_VERSION_BUCKETS } from '@/server/content-versions/versions';
import { call, postWhere, publicApi, recordingDb, KOREAN, memberOf } from './harness';

const ADMIN = memberOf(1001, 'ADMIN');
const MEMBER = memberOf(1007, 'MEMBER');

/** Everything a hide may change in channel 1: versions, list counters and the gaps of its lists. */
async function channelState() {
	return env.DB.prepare(
		`SELECT c.content_version, c.post_versions, c.list_versions, c.listed_count, (SELECT listed_count FROM boards WHERE id = 12) AS board_listed,
			(SELECT count(*) FROM list_gaps) AS gap_rows, (SELECT coalesce(sum(removed), 0) FROM list_gaps) AS gaps
		 FROM channels c WHERE c.id = 1`,
	).first<{
		content_version: number;
		post_versions: string;
		list_versions: string;
		listed_count: number;
		board_listed: number;
		gap_rows: number;
		gaps: number;
	}>();
}

const bucketOf = (postVersions: string, postId: number) =>
	(JSON.parse(postVersions) as Record<string, number>)[String(postId % POST_VERSION_BUCKETS)] ?? 0;

async function newComment(postId: number, content: string): Promise<number> {
	const { comment } = await createComment(env.DB, 1, MEMBER, postId, { content }, Date.now());
	return comment.commentId;
}

const commentCount = async (postId: number) =>
	(await env.DB.prepare('SELECT comment_count FROM posts WHERE id = ?1').bind(postId).first<number>('comment_count'))!;

describe('hiding a post', () => {
	it('takes it out of its lists for everyone but administrators, turns its lists and its page cold, and writes a bounded number of rows', async () => {
		const postId = await postWhere(
			'board_id = 12 AND board_seq IS NOT NULL AND channel_seq IS NOT NULL AND hidden_by_admin = 0 AND deleted_at IS NULL AND is_notice = 0',
		);
		const before = (await channelState())!;
		const { db, statements } = recordingDb();
		await hidePost(db, 1, ADMIN, postId);
		const after = (await channelState())!;
		// Its board's list, All Posts and its own page go cold for guests; the layout does not.
		expect(after.content_version).toBe(before.content_version);
		const lists = (json: string) => JSON.parse(json) as Record<string, number>;
		expect([lists(after.list_versions)['b12'], lists(after.list_versions)['all']]).toEqual([
			(lists(before.list_versions)['b12'] ?? 0) + 1,
			(lists(before.list_versions)['all'] ?? 0) + 1,
		]);
		expect(bucketOf(after.post_versions, postId)).toBe(bucketOf(before.post_versions, postId) + 1);
		expect([after.listed_count, after.board_listed]).toEqual([before.listed_count - 1, before.board_listed - 1]);
		expect(after.gaps).toBeGreaterThan(before.gaps);
		const written = statements.reduce((sum, statement) => sum + statement.rowsWritten, 0);
		// The post, three list counters, the content version and at most 25 gap nodes per list.
		expect(written).toBeLessThanOrEqual(100);
		const row = await env.DB.prepare('SELECT hidden_by_admin, board_seq, channel_seq, board_pos FROM posts WHERE id = ?1').bind(postId).first();
		expect(row).toMatchObject({ hidden_by_admin: 1, board_seq: null, channel_seq: null });
		expect(row?.['board_pos']).not.toBeNull();
		const guest = await call(`${publicApi()}/posts/${postId}`);
		expect(guest.body['content']).toMatchObject({ readable: false, state: 'HIDDEN_BY_ADMIN' });

		// Hiding it again changes nothing.
		const again = recordingDb();
		await hidePost(again.db, 1, ADMIN, postId);
		expect(again.statements.reduce((sum, statement) => sum + statement.rowsWritten, 0)).toBe(0);
		expect(await channelState()).toEqual(after);
	});

	it('is for administrators only, and only for a post of the channel that is not deleted', async () => {
		const postId = await postWhere('board_seq IS NOT NULL AND hidden_by_admin = 0 AND deleted_at IS NULL');
		const before = await channelState();
		await expect(hidePost(env.DB, 1, MEMBER, postId)).rejects.toMatchObject({ codeName: 'Forbidden' });
		const deleted = await postWhere('deleted_at IS NOT NULL');
		await expect(hidePost(env.DB, 1, ADMIN, deleted)).rejects.toMatchObject({ codeName: 'PostNotFound' });
		const korean = await postWhere('deleted_at IS NULL', KOREAN.id);
		await expect(hidePost(env.DB, 1, ADMIN, korean)).rejects.toMatchObject({ codeName: 'PostNotFound' });
		await expect(hidePost(env.DB, 1, ADMIN, 987654321)).rejects.toMatchObject({ codeName: 'PostNotFound' });
		expect(await channelState()).toEqual(before);
	});
});

describe('hiding a comment', () => {
	it('counts one comment fewer, touches its post only, and writes three rows (five with the Popular index entries) and its log entry', async () => {
		const postId = await postWhere('board_seq IS NOT NULL AND hidden_by_admin = 0 AND deleted_at IS NULL');
		const commentId = await newComment(postId, 'To be hidden');
		const count = await commentCount(postId);
		const before = (await channelState())!;
		const { db, statements } = recordingDb();
		await hideComment(db, 1, ADMIN, commentId);
		// The read, then the comment, the post's count and hot score (its row, and its entry in the two
		// Popular indexes of a listed post), the channel's bucket, its open reports (none) and the log's
		// row (with its index entry).
		expect(statements.map((statement) => statement.rowsWritten)).toEqual([0, 1, 3, 1, 0, 2]);
		expect(await commentCount(postId)).toBe(count - 1);
		const after = (await channelState())!;
		expect(after.content_version).toBe(before.content_version);
		expect(bucketOf(after.post_versions, postId)).toBe(bucketOf(before.post_versions, postId) + 1);
		const comments = await call(`${publicApi()}/posts/${postId}/comments`);
		expect(JSON.stringify(comments.body['content'])).not.toContain('To be hidden');

		// Hiding it again changes nothing, and never counts it twice.
		await hideComment(env.DB, 1, ADMIN, commentId);
		expect(await commentCount(postId)).toBe(count - 1);
		expect(await channelState()).toEqual(after);
	});

	it('is for administrators only, and only for a comment of the channel that is not deleted', async () => {
		const postId = await postWhere('board_seq IS NOT NULL AND hidden_by_admin = 0 AND deleted_at IS NULL');
		const commentId = await newComment(postId, 'Stays');
		const count = await commentCount(postId);
		const before = await channelState();
		await expect(hideComment(env.DB, 1, MEMBER, commentId)).rejects.toMatchObject({ codeName: 'Forbidden' });
		await expect(hideComment(env.DB, KOREAN.id, ADMIN, commentId)).rejects.toMatchObject({ codeName: 'CommentNotFound' });
		await env.DB.prepare('UPDATE comments SET deleted_at = 1 WHERE id = ?1').bind(commentId).run();
		await expect(hideComment(env.DB, 1, ADMIN, commentId)).rejects.toMatchObject({ codeName: 'CommentNotFound' });
		expect(await commentCount(postId)).toBe(count);
		expect(await channelState()).toEqual(before);
	});
});
