/** Everything the main layout shows for a channel, read in one round of parallel queries. */
import { boardTree, listBoards, listSubjects, type Board, type BoardSubject, type TreeNode } from '@/server/boards/boards';
import { CHANNEL_MEMO_ENTRIES, layoutFooter, listProviders, type Channel } from './channels';
import { createMemo } from '@/server/platform/memo';
import type { FooterConfig, Provider } from '@/schemas/channel';

export interface LayoutData {
	boards: Board[];
	tree: TreeNode[];
	subjects: BoardSubject[];
	footer: FooterConfig;
	providers: Provider[];
}

const layouts = createMemo<LayoutData>(CHANNEL_MEMO_ENTRIES);

/**
 * The layout data, read once per content version of the channel by each isolate: every change to
 * boards, the tree or categories bumps the version (channels.content_version).
 */
export function loadLayout(db: D1Database, channel: Channel): Promise<LayoutData> {
	return layouts.read(String(channel.id), channel.contentVersion, (version) => version === channel.contentVersion, () => readLayout(db, channel));
}

async function readLayout(db: D1Database, channel: Channel): Promise<LayoutData> {
	const [boards, tree, subjects, providers] = await Promise.all([
		listBoards(db, channel.id),
		boardTree(db, channel.id),
		listSubjects(db, channel.id),
		listProviders(db, channel.id),
	]);
	return { boards, tree, subjects, footer: layoutFooter(channel), providers };
}
