/**
 * `npm run channel -- apply FILE [--database DB_n]` without its printing (scripts/operator/channel.ts):
 * where the community lives, its plan there (./apply.ts) and the write. The directory (DB) says where
 * an existing community lives; a new one goes into `database`, with an id from the directory, and the
 * directory then gets its copy of the channel's row (docs/reference/databases.md). The workers tests
 * call the same functions on the Worker's bindings.
 */
import { copyChannelRow } from '@/server/databases/community-rows';
import type { BoundDatabases } from '@/server/databases/move';
import { applyChannel, planChannel, type ChannelPlan } from './apply';
import type { ChannelFile } from './channel-file';

/** A file that cannot be applied where it asks to be (the message says why); nothing was changed. */
export class ApplyRefused extends Error {}

/** A community file's plan, in the database that holds (or will hold) the community. */
export interface PlacedPlan {
	plan: ChannelPlan;
	/** The binding of that database. */
	home: string;
	db: Db;
	/** Whether the directory has the community's row (a creation cut short before its copy has not). */
	listed: boolean;
}

interface Placement {
	database: string;
	moving_to: string | null;
}

/**
 * The plan of `file` where its community lives, or for a new one in the database bound as `database`
 * (DB unless given). @throws ApplyRefused while the community moves, for a binding that is not bound,
 * and for a `database` that is not where an existing community lives (a move changes that).
 */
export async function planCommunityFile(dbs: BoundDatabases, file: ChannelFile, database?: string, now = Date.now()): Promise<PlacedPlan> {
	const name = `${file.domain}/${file.slug}`;
	const placement = await dbs.directory
		.prepare('SELECT database, moving_to FROM channels WHERE domain = ?1 AND slug = ?2')
		.bind(file.domain, file.slug)
		.first<Placement>();
	if (placement?.moving_to) throw new ApplyRefused(`${name} is moving to ${placement.moving_to}; apply it once the move is done`);
	if (placement && database !== undefined && database !== placement.database)
		throw new ApplyRefused(`${name} lives in ${placement.database}, not ${database}; move it with \`move ${name} --to ${database}\``);
	const home = placement?.database ?? database ?? 'DB';
	if (!dbs.names.includes(home)) throw new ApplyRefused(`no database is bound as ${home} (bound: ${dbs.names.join(', ')})`);
	const db = dbs.open(home);
	return { plan: await planChannel(db, file, now, dbs.directory, home), home, db, listed: placement !== null };
}

/** Whether applying the plan changes anything: its rows, or the directory's missing copy of the channel's row. */
export function changesAnything({ plan, listed }: PlacedPlan): boolean {
	return plan.changes.length > 0 || !listed;
}

/**
 * Writes the plan in the community's database; a community outside the directory then has its row
 * copied there (a new one, or one whose row changed), or copied again when the directory lacks it.
 * @throws Error when the plan has refusals
 */
export async function applyCommunityFile(dbs: BoundDatabases, placed: PlacedPlan): Promise<{ moved: number }> {
	const { plan, home, db, listed } = placed;
	const result = await applyChannel(db, plan);
	if (home !== 'DB' && (plan.statements.length > 0 || !listed)) await copyChannelRow(db, dbs.directory, plan.channelId);
	return result;
}
