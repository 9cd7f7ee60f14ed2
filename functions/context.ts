/** The Hono environment of the API: per-request values set by middleware. */
import type { Channel } from '../src/server/channels';

export interface ApiEnv {
	Variables: {
		/** The channel named by the path's {domain}/{slug}; set by the channel middleware. */
		channel: Channel;
		db: D1Database;
	};
}
