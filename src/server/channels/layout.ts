/** Everything the main layout shows for a channel, read in one round of parallel queries. */
import { boardTree, listBoards, listSubjects, type Board, type BoardSubject, type TreeNode } from '@/server/boards/boards';
import { layoutFooter, listProviders, type Channel } from './channels';
import type { FooterConfig, Provider } from '@/schemas/channel';

export interface LayoutData {
	boards: Board[];
	tree: TreeNode[];
	subjects: BoardSubject[];
	footer: FooterConfig;
	providers: Provider[];
}

const layouts = new Map<number, { version: number; layout: Promise<LayoutData> }>();

/**
 * The layout data, read once per content version of the channel by each isolate: every change to
 * boards, the tree or categories bumps the version (channels.content_version).
 */
export function loadLayout(db: D1Database, channel: Channel): Promise<LayoutData> {
	const known = layouts.get(channel.id);
	if (known && known.version === channel.contentVersion) return known.layout;
	const layout = readLayout(db, channel);
	const entry = { version: channel.contentVersion, layout };
	layouts.set(channel.id, entry);
	// Forget a failed read, unless a newer version's read has already taken its place.
	layout.catch(() => layouts.get(channel.id) === entry && layouts.delete(channel.id));
	return layout;
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
