/** Everything the main layout shows for a channel, read in one round of parallel queries. */
import { boardTree, listBoards, listSubjects, type Board, type BoardSubject, type TreeNode } from '@/server/boards/boards';
import { CHANNEL_MEMO_ENTRIES, layoutFooter, listProviders, type Channel } from './channels';
import { listVersion } from '@/server/content-versions/versions';
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
 * The layout data, read once per content version of the channel by each isolate (every change to
 * boards, the tree or categories bumps it: channels.content_version), and again when a list changes
 * (its "all" list version), since the boards' and categories' post counts come with it: they place
 * a board's last page.
 */
export function loadLayout(db: Db, channel: Channel): Promise<LayoutData> {
	const lists = listVersion(channel, { kind: 'all' });
	return layouts.read(
		`${channel.id}.${channel.contentVersion}`,
		lists,
		(version) => version === lists,
		() => readLayout(db, channel),
	);
}

async function readLayout(db: Db, channel: Channel): Promise<LayoutData> {
	const [boards, tree, subjects, providers] = await Promise.all([
		listBoards(db, channel.id),
		boardTree(db, channel.id),
		listSubjects(db, channel.id),
		listProviders(db, channel.id),
	]);
	return { boards, tree, subjects, footer: layoutFooter(channel), providers };
}
