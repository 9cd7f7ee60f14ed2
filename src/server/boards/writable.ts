/**
 * The boards a member may write in, with what the write screen needs of each: its enabled
 * categories and its write template. Public boards for everyone; private boards and notice-only
 * boards (announcements) for administrators alone.
 */
import { all } from '@/server/platform/db';
import { DocumentSchema, type ContentDocument } from '@/schemas/content';

export interface WritableSubject {
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
	/** The enabled subjects as a JSON array of [id, name], in display order. */
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

/** Whether a member (`admin` or not) may write in a board with these flags. */
export function canWriteIn(board: { isPublic: boolean; noticeOnly: boolean }, admin: boolean): boolean {
	return admin || (board.isPublic && !board.noticeOnly);
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
 * The boards of the channel `admin` (an administrator or not) may write in, in board order, each
 * with its enabled subjects; one D1 query. `keepBoardId` (an edited post's board) is kept even when
 * the member could not write a new post there, so that the edit screen shows the stored board.
 */
export async function writableBoards(db: D1Database, channelId: number, admin: boolean, keepBoardId?: number): Promise<WritableBoard[]> {
	const rows = await all<WritableRow>(
		db
			.prepare(
				`SELECT b.id, b.name, b.is_public, b.use_subjects, b.notice_only, b.write_template,
					(SELECT json_group_array(json_array(t.id, t.name))
					 FROM (SELECT s.id, s.name FROM board_subjects s
					       WHERE s.board_id = b.id AND s.channel_id = b.channel_id AND s.enabled = 1
					       ORDER BY s.sort_order) t) AS subjects_json
				 FROM boards b WHERE b.channel_id = ?1 ORDER BY b.id`,
			)
			.bind(channelId),
	);
	return rows
		.filter((row) => row.id === keepBoardId || canWriteIn({ isPublic: row.is_public === 1, noticeOnly: row.notice_only === 1 }, admin))
		.map((row) => {
			const usesSubjects = row.use_subjects === 1;
			const subjects = usesSubjects ? (JSON.parse(row.subjects_json) as [number, string][]).map(([subjectId, name]) => ({ subjectId, name })) : [];
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
