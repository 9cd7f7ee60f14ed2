/** The Hono environment of the API: per-request values set by middleware. */
import type { Channel } from '@/server/channels/channels';
import type { SessionState } from '@/server/sign-in/sessions';

export interface ApiEnv {
	Variables: {
		/** The channel named by the path's {domain}/{slug}; set by the channel middleware. */
		channel: Channel;
		db: D1Database;
		/** Who is asking, from the channel's session cookie; set by the session middleware. */
		session: SessionState;
	};
}
