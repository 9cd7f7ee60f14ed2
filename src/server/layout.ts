/** Everything the main layout shows for a channel, read in one round of parallel queries. */
import { boardTree, listBoards, listSubjects, type Board, type BoardSubject, type TreeNode } from './boards';
import { layoutFooter, listProviders, type Channel } from './channels';
import type { FooterConfig, Provider } from '../schemas/channel';

export interface LayoutData {
	boards: Board[];
	tree: TreeNode[];
	subjects: BoardSubject[];
	footer: FooterConfig;
	providers: Provider[];
}

export async function loadLayout(db: D1Database, channel: Channel): Promise<LayoutData> {
	const [boards, tree, subjects, providers] = await Promise.all([
		listBoards(db, channel.id),
		boardTree(db, channel.id),
		listSubjects(db, channel.id),
		listProviders(db, channel.id),
	]);
	return { boards, tree, subjects, footer: layoutFooter(channel), providers };
}
