/** What the site root loads: the directory of communities. */
import { env } from 'cloudflare:workers';
import { database } from '@/server/platform/database';
import { listCommunities, type CommunityListing } from '@/server/channels/directory';

export function loadDirectory(): Promise<CommunityListing[]> {
	return listCommunities(database(env.DB));
}
