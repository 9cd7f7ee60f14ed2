/**
 * The community a request names, and the database that holds it: the Worker's bindings
 * (src/server/platform/databases.ts) and the request's D1 session on each (database.ts), for
 * channels.ts `resolveCommunity`.
 */
import { database } from '@/server/platform/database';
import { databaseNamed } from '@/server/platform/databases';
import { AppError } from '@/server/platform/errors';
import { resolveCommunity, type Channel } from './channels';

/** A community and its database: the request's session on the binding that holds its rows. */
export interface Community {
	db: Db;
	channel: Channel;
}

/** The community at /{domain}/{slug}, or null when there is none. */
export function findCommunity(domain: string, slug: string, now = Date.now()): Promise<Community | null> {
	return resolveCommunity((name) => databaseNamed(name), database, domain, slug, now);
}

/** @throws AppError ChannelNotFound */
export async function getCommunity(domain: string, slug: string): Promise<Community> {
	const community = await findCommunity(domain, slug);
	if (!community) throw new AppError('ChannelNotFound');
	return community;
}

/**
 * How long a writer is asked to wait while the community moves (seconds): a move's switch takes
 * seconds; its copy, for a large community, minutes (docs/reference/databases.md#moving-a-community).
 */
export const MOVING_RETRY_SECONDS = 30;

/** @throws AppError CommunityMoving (503, Retry-After) while `npm run channel -- move` copies the community. */
export function refuseWritesWhileMoving(channel: Channel): void {
	if (channel.movingTo !== null) throw new AppError('CommunityMoving', undefined, { retryAfter: MOVING_RETRY_SECONDS });
}
