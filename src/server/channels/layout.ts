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

/** What moves only with the content version: the board tree and the sign-in providers (no counts in them). */
interface LayoutFrame {
	tree: TreeNode[];
	providers: Provider[];
}

const frames = createMemo<LayoutFrame>(CHANNEL_MEMO_ENTRIES);

/**
 * The layout data, read once per content version of the channel by each isolate (every change to
 * boards, the tree or categories bumps it: channels.content_version), and its boards and categories
 * again when a list changes (its "all" list version), since their post counts come with them: they
 * place a board's last page. The tree and the providers stay remembered across new posts. One object
 * per version: the layout's rendered pieces are remembered per object (layout-html.ts).
 */
export function loadLayout(db: Db, channel: Channel): Promise<LayoutData> {
	const lists = listVersion(channel, { kind: 'all' });
	return layouts.read(
		layoutKey(channel),
		lists,
		(version) => version === lists,
		async () => {
			const [boards, subjects, frame] = await Promise.all([listBoards(db, channel.id), listSubjects(db, channel.id), loadFrame(db, channel)]);
			return { boards, subjects, ...frame, footer: layoutFooter(channel) };
		},
	);
}

const layoutKey = (channel: Channel) => `${channel.id}.${channel.contentVersion}`;

/**
 * The layout for what a new post does not move (which boards there are, who may read them, which are
 * announcements, the providers): the one remembered for this content version, whatever its counts, else
 * read now. Only the counts in its boards and categories may be behind: nothing read from it may use them.
 */
export function loadLayoutShape(db: Db, channel: Channel): Promise<LayoutData> {
	const known = layouts.peek(layoutKey(channel));
	return known ? Promise.resolve(known) : loadLayout(db, channel);
}

/** The channel's sign-in providers, remembered until its content version moves (not read again after a new post). */
export async function loadProviders(db: Db, channel: Channel): Promise<Provider[]> {
	return (await loadFrame(db, channel)).providers;
}

function loadFrame(db: Db, channel: Channel): Promise<LayoutFrame> {
	const version = channel.contentVersion;
	return frames.read(
		String(channel.id),
		version,
		(known) => known === version,
		async () => {
			const [tree, providers] = await Promise.all([boardTree(db, channel.id), listProviders(db, channel.id)]);
			return { tree, providers };
		},
	);
}
