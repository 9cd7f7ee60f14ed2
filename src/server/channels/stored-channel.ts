/**
 * What is stored of a community, as ./apply.ts compares its file with it: the configuration's rows,
 * with how many posts and drafts use each board and category (those are never removed), and the
 * highest ids in use (new rows without a fixed id follow them).
 */
import { CHANNEL_COLUMNS, type BoardRow, type ChannelRow, type ConfigRows, type NodeRow, type SubjectRow } from './channel-rows';
import { all } from '@/server/platform/db';
import { lastIdValueSql } from '@/server/databases/ids';

interface StoredBoard extends BoardRow {
	/** Posts and drafts on the board: a board with any is never removed. */
	uses: number;
}
interface StoredSubject extends SubjectRow {
	uses: number;
}

/** What is stored of a channel's configuration, or null when the channel does not exist. */
export interface StoredChannel {
	rows: Omit<ConfigRows, 'boards' | 'subjects'> & { boards: StoredBoard[]; subjects: StoredSubject[] };
}

/** The highest ids in use, for new rows without a fixed id. */
export interface NextIds {
	channel: number;
	board: number;
	subject: number;
	node: number;
}

export const BOARD_COLUMNS = ['key', 'name', 'description', 'is_public', 'use_subjects', 'write_template', 'notice_only'] as const;
export const JSON_COLUMNS = new Set(['header_config', 'footer_config', 'banner', 'write_template', 'new_member_limits']);

/** The stored configuration of `domain/slug`, with what uses each board and category. */
export async function readStoredChannel(db: Db, domain: string, slug: string): Promise<StoredChannel | null> {
	const channel = await db
		.prepare(`SELECT id, ${CHANNEL_COLUMNS.join(', ')} FROM channels WHERE domain = ?1 AND slug = ?2`)
		.bind(domain, slug)
		.first<ChannelRow>();
	if (!channel) return null;
	const [providers, boards, subjects, nodes] = await Promise.all([
		all<{ provider: string }>(db.prepare('SELECT provider FROM channel_providers WHERE channel_id = ?1 ORDER BY sort_order').bind(channel.id)),
		all<StoredBoard>(
			db
				.prepare(
					`SELECT b.id, ${BOARD_COLUMNS.map((column) => `b.${column}`).join(', ')},
						(SELECT count(*) FROM posts p WHERE p.board_id = b.id) + (SELECT count(*) FROM drafts d WHERE d.board_id = b.id) AS uses
					 FROM boards b WHERE b.channel_id = ?1 ORDER BY b.id`,
				)
				.bind(channel.id),
		),
		all<StoredSubject>(
			db
				.prepare(
					`SELECT s.id, coalesce(s.key, 'category-' || s.id) AS key, s.board_id, s.name, s.sort_order, s.enabled,
						(SELECT count(*) FROM posts p WHERE p.subject_id = s.id) + (SELECT count(*) FROM drafts d WHERE d.subject_id = s.id) AS uses
					 FROM board_subjects s WHERE s.channel_id = ?1 ORDER BY s.board_id, s.sort_order, s.id`,
				)
				.bind(channel.id),
		),
		all<NodeRow>(
			db
				.prepare(
					'SELECT id, parent_id, sort_order, text, type, board_id, public_flag, url, use_collapsed FROM board_tree_nodes WHERE channel_id = ?1 ORDER BY sort_order, id',
				)
				.bind(channel.id),
		),
	]);
	return { rows: { channel, providers: providers.map((row) => row.provider), boards, subjects, nodes } };
}

/**
 * The largest ids so far in `db`, the database bound as `binding`: a new channel's (the directory's
 * counter), and its boards', categories' and tree nodes', in the database's own range of ids
 * (src/server/databases/ids.ts).
 */
export async function nextIds(db: Db, binding = 'DB'): Promise<NextIds> {
	const row = await db
		.prepare(
			`SELECT (SELECT coalesce(max(id), 0) FROM channels) AS channel, ${lastIdValueSql(binding, 'boards')} AS board,
				${lastIdValueSql(binding, 'board_subjects')} AS subject, ${lastIdValueSql(binding, 'board_tree_nodes')} AS node`,
		)
		.first<NextIds>();
	return row ?? { channel: 0, board: 0, subject: 0, node: 0 };
}
