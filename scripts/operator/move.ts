/**
 * `npm run channel -- move DOMAIN/SLUG --to DB_n` and `--rollback`: moves a community between the
 * bound databases (src/server/databases/move.ts, docs/reference/databases.md#moving-a-community),
 * printing each step. After the switch it waits MOVE_SETTLE_MS before it removes the source's rows,
 * so that every isolate of the deployment has seen the channel's row change (the channel memo answers
 * a row at most two seconds old: src/server/channels/channels.ts) and no read with the old row is
 * still under way. Writes need no wait: each carries the move's check (src/server/databases/write-guard.ts).
 */
import { channelPathOf } from '@/schemas/params';
import { moveCommunity, MoveRefused, rollbackMove } from '@/server/databases/move';
import { openDatabase } from './database';

/** The channel memo's two seconds, and a margin for a read that began just before the switch. */
export const MOVE_SETTLE_MS = 5_000;

export async function move(
	target: string | undefined,
	options: { to: string | undefined; rollback: boolean; remote: boolean; persistTo: string | undefined },
): Promise<number> {
	const [domain, slug] = (target ?? '').split('/');
	const path = channelPathOf({ domain, slug });
	if (!path || (!options.to && !options.rollback) || (options.to && options.rollback)) {
		console.error('channel: move takes DOMAIN/SLUG and either --to DB_n or --rollback, e.g. move starfall/jp --to DB_2');
		return 2;
	}
	const database = await openDatabase({ remote: options.remote, persistTo: options.persistTo });
	const name = `${path.domain}/${path.slug}`;
	try {
		if (options.rollback) {
			const rolledBack = await rollbackMove(database.databases, path.domain, path.slug);
			console.log(
				rolledBack
					? `${name}: the move to ${rolledBack.to} was rolled back (${rolledBack.removed} copied rows removed).`
					: `${name}: no move is under way.`,
			);
			return 0;
		}
		const outcome = await moveCommunity(database.databases, path.domain, path.slug, options.to!, {
			settle: () => new Promise((resolve) => setTimeout(resolve, MOVE_SETTLE_MS)),
			onStep: (step, detail) => console.log(`${name}: ${step}${detail ? ` (${detail})` : ''}`),
		});
		console.log(
			outcome.kind === 'moved'
				? `${name} moved from ${outcome.from} to ${outcome.to}: ${outcome.rows} rows copied and verified, ${outcome.removed} removed from ${outcome.from}.`
				: `${name} is in ${options.to}${outcome.removed > 0 ? `; ${outcome.removed} rows an earlier move left elsewhere were removed` : ''}.`,
		);
		return 0;
	} catch (error) {
		if (error instanceof MoveRefused) {
			console.error(`channel: move ${name}: ${error.message}`);
			return 2;
		}
		throw error;
	} finally {
		await database.close();
	}
}
