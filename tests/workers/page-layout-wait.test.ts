/**
 * A page's reads and the layout (src/server/loaders/channel-page.ts): the layout is remembered by
 * each isolate until a list of the channel moves (any new post: the boards' counts come with it).
 * Only its boards and categories are read again then (their counts); the tree and the providers wait
 * for the content version. A page whose reads do not need the layout sends them beside its read, one
 * round trip however the layout stands; only reads made afterLayout (the board page's list) wait for it.
 */
import { describe, expect, it } from 'vitest';
import { env } from 'cloudflare:workers';
import { GLOBAL, moveAllList } from './harness';
import { countRoundTrips, type RoundTrips } from '@/server/platform/database';
import { afterLayout, loadChannelPageIf, type PageReads } from '@/server/loaders/channel-page';
import { profileRead } from '@/server/members/profiles';
import { boardPageRead } from '@/server/posts/board-page';
import type { Reads } from '@/server/platform/reads';

/** A guest's page of the global channel with `reads`, and the round trips it took. */
async function pageWith<R extends Reads>(reads: PageReads<R>): Promise<{ trips: RoundTrips; read: unknown }> {
	return countRoundTrips(async (trips) => {
		const page = await loadChannelPageIf(
			{
				params: { domain: GLOBAL.domain, slug: GLOBAL.slug },
				request: new Request(`http://localhost/${GLOBAL.domain}/${GLOBAL.slug}/boards`),
				response: { status: 200, headers: new Headers() } as Response,
				locals: {} as App.Locals,
				csp: undefined,
			} as Parameters<typeof loadChannelPageIf>[0],
			reads,
		);
		return { trips, read: page?.read };
	});
}

const profile: PageReads<Reads> = (db, channel) => ({ profile: profileRead(db, channel.id, 1007) });
/** The list of the channel's first public board. */
const boardList = (boardId: number): PageReads<Reads> =>
	afterLayout((db, channel, tokenHash, layout) => ({
		list: boardPageRead(db, channel.id, layout, { boardId, subjectId: null, page: null }, tokenHash !== null),
	}));

describe('a page and the layout it shows', () => {
	it('reads beside the layout in one round trip when its list moved, and in one when it is remembered', async () => {
		await pageWith(profile);
		const remembered = await pageWith(profile);
		expect(remembered.trips.depth).toBe(1);
		await moveAllList();
		const moved = await pageWith(profile);
		expect(moved.trips.channelLookups).toBe(1);
		// The layout's boards and categories (their counts moved; the tree and providers are remembered until
		// the content version moves) and the session's batch with the profile, side by side.
		expect(moved.trips.count).toBe(3);
		expect(moved.trips.depth).toBe(1);
		expect(moved.read).toMatchObject({ profile: { userId: 1007 } });
	});

	it('waits for the layout with reads made afterLayout: a round trip more only when the list moved', async () => {
		const board = await env.DB.prepare('SELECT id FROM boards WHERE channel_id = ?1 AND is_public = 1 ORDER BY id LIMIT 1')
			.bind(GLOBAL.id)
			.first<number>('id');
		const reads = boardList(board!);
		await pageWith(reads);
		expect((await pageWith(reads)).trips.depth).toBe(1);
		await moveAllList();
		const moved = await pageWith(reads);
		expect(moved.trips.depth).toBe(2);
		expect(moved.read).toMatchObject({ list: expect.anything() });
		expect((await pageWith(reads)).trips.depth).toBe(1);
	});
});
