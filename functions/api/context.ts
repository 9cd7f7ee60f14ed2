/** The Hono environment of the API: per-request values set by middleware. */
import type { Channel } from '@/server/channels/channels';
import type { SessionState } from '@/server/sign-in/sessions';
import type { Signup } from '@/server/accounts/signup';

export interface ApiEnv {
	Variables: {
		/** The channel named by the path's {domain}/{slug}; set by the channel middleware. */
		channel: Channel;
		db: Db;
		/** Who is asking, from the channel's session cookie; set by the session middleware. */
		session: SessionState;
		/**
		 * On a route whose write reads its session's row in its own batch (the session middleware's
		 * `sessionInBatch`): the hash the row is found by, until the route has read it (`session` is unset till then).
		 */
		sessionToken: string | undefined;
		/** The sign-up in progress, on the sign-up routes; set by their caller check. */
		signup: Signup;
	};
}
