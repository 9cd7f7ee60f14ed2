/**
 * Keeps the search index (migrations/0010) equal to what readers may find, inside the batch of
 * each change: post_search holds a post exactly while it has a place in "All Posts" (channel_seq
 * set: visible, in a public board), with the text it has now; member_search holds each member's
 * nickname until withdrawal. Each entry is written through its rowid, CHANNEL_SPAN × the channel
 * + the post's (or member's) id, so that a channel's entries are one rowid range.
 *
 * Rows written per change are bounded by the post's own size: an entry is a row of the FTS5
 * table's docsize, and its terms go to a new segment of its index (a row per 4 KB of terms), later
 * merged in steps of bounded size; tests/workers/search.test.ts states the bound.
 */
import { searchDocument } from '@/server/search-index/search-text';

/** Rowids per channel: post and member ids up to 2^32, channel ids up to 2^21 (exact in a double). */
const CHANNEL_SPAN = 2 ** 32;

/** The rowid range of a channel's entries. */
export function channelRange(channelId: number): [number, number] {
	if (!Number.isSafeInteger(channelId) || channelId < 1 || channelId >= 2 ** 21) throw new RangeError(`No channel ${channelId}`);
	return [channelId * CHANNEL_SPAN, channelId * CHANNEL_SPAN + CHANNEL_SPAN - 1];
}

/** The searched fields of a post. */
export interface SearchedText {
	title: string;
	/** The body's plain text (posts.content_text). */
	body: string;
}

/**
 * Statements that make a post's entry agree with its row, to run after the row's write in the
 * same batch: the old entry goes, and when `text` is given and the post is listed, the new one is
 * written. `post` names it by id, or, for a post the batch creates, by its author and request id
 * (then an entry the post has already, written by another request of the same id, is kept).
 */
export function postSearchStatements(
	db: Db,
	channelId: number,
	post: number | { memberId: number; requestId: string },
	text: SearchedText | null,
): D1PreparedStatement[] {
	const [base] = channelRange(channelId);
	const statements: D1PreparedStatement[] = [];
	if (typeof post === 'number') statements.push(db.prepare('DELETE FROM post_search WHERE rowid = ?1').bind(base + post));
	if (text) {
		const where =
			typeof post === 'number'
				? 'id = ?4'
				: 'member_id = ?4 AND request_id = ?5 AND NOT EXISTS (SELECT 1 FROM post_search s WHERE s.rowid = ?1 + posts.id)';
		statements.push(
			db
				.prepare(
					`INSERT INTO post_search (rowid, title, body) SELECT ?1 + id, ?2, ?3 FROM posts
					 WHERE ${where} AND channel_id = ?6 AND channel_seq IS NOT NULL`,
				)
				.bind(
					base,
					searchDocument(text.title),
					searchDocument(text.body),
					...(typeof post === 'number' ? [post, null] : [post.memberId, post.requestId]),
					channelId,
				),
		);
	}
	return statements;
}

/** Statements that make a member's nickname entry agree: null removes it (withdrawal). */
export function memberSearchStatements(db: Db, channelId: number, memberId: number, nickname: string | null): D1PreparedStatement[] {
	const [base] = channelRange(channelId);
	const statements = [db.prepare('DELETE FROM member_search WHERE rowid = ?1').bind(base + memberId)];
	if (nickname !== null)
		statements.push(db.prepare('INSERT INTO member_search (rowid, nickname) VALUES (?1, ?2)').bind(base + memberId, searchDocument(nickname)));
	return statements;
}

/**
 * A new member's entry, for the batch that creates the member: named by the membership's
 * identity, since the new row's id is not known before the batch.
 */
export function newMemberSearchStatement(db: Db, channelId: number, identityId: number, nickname: string): D1PreparedStatement {
	const [base] = channelRange(channelId);
	return db
		.prepare('INSERT INTO member_search (rowid, nickname) SELECT ?1 + id, ?2 FROM members WHERE channel_id = ?3 AND identity_id = ?4')
		.bind(base, searchDocument(nickname), channelId, identityId);
}
