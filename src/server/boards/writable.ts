/**
 * Who may write in a board (writeRefusal), the check of a post's board and category as it is
 * written (writingBoardStatement, writingBoardOf: src/server/posts/writing.ts calls them), and the boards
 * a member may write in, with what the write screen needs of each: its enabled categories and its
 * write template. Public boards for everyone; private boards and notice-only boards
 * (announcements) for administrators alone.
 */
import { AppError } from '@/server/platform/errors';
import { read, run, type Read } from '@/server/platform/reads';
import { DocumentSchema, type ContentDocument } from '@/schemas/content';

interface WritableSubject {
	subjectId: number;
	name: string;
}

export interface WritableBoard {
	boardId: number;
	name: string;
	/** False for a board that takes no category ('Unable to set the category.'). */
	usesSubjects: boolean;
	subjects: WritableSubject[];
	/** The board's write template; null when it has none or the stored one is broken. */
	template: ContentDocument | null;
	noticeOnly: boolean;
}

interface WritableRow {
	id: number;
	name: string;
	is_public: number;
	use_subjects: number;
	notice_only: number;
	write_template: string | null;
	/** The enabled subjects as a JSON array of { subjectId, name }, in display order. */
	subjects_json: string;
}

/** A stored template, or null when it is missing or no longer a valid document. */
export function parseTemplate(stored: string | null): ContentDocument | null {
	if (!stored) return null;
	try {
		const parsed = DocumentSchema.safeParse(JSON.parse(stored));
		return parsed.success && parsed.data.blocks.length > 0 ? parsed.data : null;
	} catch {
		return null;
	}
}

/**
 * Who may write in a board, the one home of the rule: why a member (`admin` or not) may not write
 * in a board with these flags, or null when they may. Members write in public boards,
 * administrators anywhere; a notice-only board (announcements) is for administrators, except that
 * a post already there may be edited where it is (`keepsBoard`) by whoever may edit it.
 */
export function writeRefusal(
	board: { isPublic: boolean; noticeOnly: boolean },
	admin: boolean,
	keepsBoard = false,
): 'BoardPrivate' | 'NoticeOnlyBoard' | null {
	if (admin) return null;
	if (!board.isPublic) return 'BoardPrivate';
	if (board.noticeOnly && !keepsBoard) return 'NoticeOnlyBoard';
	return null;
}

/** Whether a member (`admin` or not) may write a new post in a board with these flags. */
function canWriteIn(board: { isPublic: boolean; noticeOnly: boolean }, admin: boolean): boolean {
	return writeRefusal(board, admin) === null;
}

/** A board as a post's write reads it. */
export interface WritingBoard {
	id: number;
	is_public: number;
	use_subjects: number;
	notice_only: number;
}

/** A board as a post's write reads it, with whether the category it names is one of its enabled ones. */
interface WritingBoardRow extends WritingBoard {
	subject_found: number;
}

/**
 * The read of the board a post is written in and of the category it names (null for none), for
 * writingBoardOf: one statement, to send with the write's other reads.
 */
export function writingBoardStatement(db: Db, channelId: number, boardId: number, subjectId: number | null): D1PreparedStatement {
	return db
		.prepare(
			`SELECT b.id, b.is_public, b.use_subjects, b.notice_only,
				EXISTS (SELECT 1 FROM board_subjects s WHERE s.id = ?3 AND s.board_id = b.id AND s.channel_id = b.channel_id AND s.enabled = 1) AS subject_found
			 FROM boards b WHERE b.id = ?1 AND b.channel_id = ?2`,
		)
		.bind(boardId, channelId, subjectId);
}

/**
 * The board a member (an administrator or not) writes in, and its category `subjectId`, from
 * writingBoardStatement's result (`keepsBoard`: an edit that leaves the post in its board).
 * @throws AppError BoardNotFound (not of this channel), BoardPrivate (a private board, to anyone
 * but an administrator), NoticeOnlyBoard; SubjectNotAllowed (the board takes none), SubjectNotFound
 * (not of the board, or disabled)
 */
export function writingBoardOf(result: D1Result | undefined, subjectId: number | null, admin: boolean, keepsBoard: boolean): WritingBoard {
	const found = result?.results[0] as WritingBoardRow | undefined;
	if (!found) throw new AppError('BoardNotFound');
	const refusal = writeRefusal({ isPublic: found.is_public === 1, noticeOnly: found.notice_only === 1 }, admin, keepsBoard);
	if (refusal) throw new AppError(refusal);
	if (subjectId !== null) {
		if (found.use_subjects !== 1) throw new AppError('SubjectNotAllowed');
		if (found.subject_found !== 1) throw new AppError('SubjectNotFound');
	}
	return { id: found.id, is_public: found.is_public, use_subjects: found.use_subjects, notice_only: found.notice_only };
}

/**
 * Whether a board page offers Write: only where the one looking could write. `board` is null on a
 * page of no board (All Posts), where the write screen picks a board. A signed-in `viewer` sees it
 * where canWriteIn lets them; a guest (viewer null) only in a community with sign-in providers and
 * on a board a member could write in, so that signing in leads somewhere. The guest's answer
 * depends on the channel and the board alone: guests' pages are cached per URL and shared.
 */
export function offersWrite(
	board: { isPublic: boolean; noticeOnly: boolean } | null,
	hasProviders: boolean,
	viewer: { admin: boolean } | null,
): boolean {
	if (viewer) return board === null || canWriteIn(board, viewer.admin);
	return hasProviders && (board === null || canWriteIn(board, false));
}

/**
 * The read of the channel's boards for the write screen (writableBoardsOf keeps those a member may
 * write in): one D1 query, in the session's round trip on a page.
 */
export function writableBoardsRead(db: Db, channelId: number): Read<WritableRow[]> {
	const statement = db
		.prepare(
			`SELECT b.id, b.name, b.is_public, b.use_subjects, b.notice_only, b.write_template,
				(SELECT json_group_array(json_object('subjectId', t.id, 'name', t.name))
				 FROM (SELECT s.id, s.name FROM board_subjects s
				       WHERE s.board_id = b.id AND s.channel_id = b.channel_id AND s.enabled = 1
				       ORDER BY s.sort_order) t) AS subjects_json
			 FROM boards b WHERE b.channel_id = ?1 ORDER BY b.id`,
		)
		.bind(channelId);
	return read(statement, (result) => result.results as WritableRow[]);
}

/**
 * The boards `admin` (an administrator or not) may write in, in board order, each with its enabled
 * subjects, from writableBoardsRead's rows. `keepBoardId` (an edited post's board) is kept even
 * when the member could not write a new post there, so that the edit screen shows the stored board.
 */
export function writableBoardsOf(rows: WritableRow[], admin: boolean, keepBoardId?: number): WritableBoard[] {
	return rows
		.filter((row) => row.id === keepBoardId || canWriteIn({ isPublic: row.is_public === 1, noticeOnly: row.notice_only === 1 }, admin))
		.map((row) => {
			const usesSubjects = row.use_subjects === 1;
			const subjects = usesSubjects ? (JSON.parse(row.subjects_json) as { subjectId: number; name: string }[]) : [];
			return {
				boardId: row.id,
				name: row.name,
				usesSubjects,
				subjects,
				template: parseTemplate(row.write_template),
				noticeOnly: row.notice_only === 1,
			};
		});
}

/** The boards of the channel `admin` may write in (writableBoardsOf), read now. */
export async function writableBoards(db: Db, channelId: number, admin: boolean, keepBoardId?: number): Promise<WritableBoard[]> {
	return writableBoardsOf(await run(db, writableBoardsRead(db, channelId)), admin, keepBoardId);
}
