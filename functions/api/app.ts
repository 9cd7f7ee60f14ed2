/**
 * The JSON API (Hono), mounted by Astro's request pipeline (src/fetch.ts) in front of the pages.
 * These are plain modules, not Cloudflare Pages' file-routed Functions.
 */
import { Hono } from 'hono';
import type { ApiEnv } from './context';
import { limitBody } from '@functions/api/validate';
import { channelMiddleware } from '@functions/api/middleware/channel';
import { errorResponse, methodNotAllowed, routeNotFound } from '@functions/api/middleware/errors';
import { originCheck } from '@functions/api/middleware/origin';
import { layoutsRouter } from '@functions/api/routers/layouts';
import { boardsRouter } from '@functions/api/routers/boards';
import { searchRouter } from '@functions/api/routers/search';
import { postsRouter } from '@functions/api/routers/posts';
import { revisionsRouter } from '@functions/api/routers/revisions';
import { usersRouter } from '@functions/api/routers/users';
import { authRouter } from '@functions/api/routers/auth';
import { accountRouter } from '@functions/api/routers/account';
import { writingRouter } from '@functions/api/routers/writing';
import { uploadsRouter } from '@functions/api/routers/uploads';
import { draftsRouter } from '@functions/api/routers/drafts';
import { reportsRouter } from '@functions/api/routers/reports';
import { likesRouter } from '@functions/api/routers/likes';
import { savedRouter } from '@functions/api/routers/saved';

import { blocksRouter } from '@functions/api/routers/blocks';
import { liveMemberRouter, livePostsRouter } from '@functions/api/routers/live';
import { commentsRouter } from '@functions/api/routers/comments';
import { adminRouter } from '@functions/api/routers/admin';
import { notificationsRouter } from '@functions/api/routers/notifications';
import { emailRouter } from '@functions/api/routers/email';
import { callerCheck, sessionMiddleware, sessionError, type Caller } from '@functions/api/middleware/session';

const publicApi = new Hono<ApiEnv>()
	.use(originCheck)
	.use(limitBody)
	.use(channelMiddleware)
	.use(sessionMiddleware)
	// A banned member still reads (docs/reference/moderation.md#a-banned-member): every other request of theirs is
	// answered with the ban, and auth/status answers it too (the page's session check).
	.use(async (c, next) => {
		if (c.var.session.kind === 'banned' && c.req.method !== 'GET' && c.req.method !== 'HEAD') throw sessionError(c.var.session);
		await next();
	})
	.route('/layouts', layoutsRouter)
	.route('/', boardsRouter)
	.route('/', searchRouter)
	.route('/', postsRouter)
	.route('/', revisionsRouter)
	.route('/', usersRouter)
	.route('/', authRouter)
	.route('/', livePostsRouter)
	// A known path asked with the wrong method.
	.all('/posts/:postId/views', methodNotAllowed);

/**
 * Who may call each member route, by its path under /v1/{domain}/{slug}: a signed-in member,
 * except sign-up's two steps (the sign-up cookie) and logout (anyone: it ends whatever session there is).
 */
const MEMBER_API_CALLERS: Readonly<Record<string, Caller>> = { '/auth/logout': 'anyone', '/signup/terms': 'signup', '/signup': 'signup' };

/**
 * Member actions: a session (or, for sign-up, the sign-up cookie) and a same-site Origin, checked
 * in that order before any route reads its input (authentication, authorisation, then parameters).
 */
const memberApi = new Hono<ApiEnv>()
	.use(originCheck)
	.use(channelMiddleware)
	.use(sessionMiddleware)
	.use(callerCheck((path) => MEMBER_API_CALLERS[path] ?? 'member'))
	.use(limitBody)
	.route('/', accountRouter)
	.route('/', uploadsRouter)
	.route('/', draftsRouter)
	.route('/', likesRouter)
	.route('/', savedRouter)

	.route('/', blocksRouter)
	.route('/', commentsRouter)
	.route('/', writingRouter)
	.route('/', reportsRouter)
	.route('/', notificationsRouter)
	.route('/', emailRouter)
	.route('/', liveMemberRouter);

/** A community's administrators, checked from the session's current row on every request before its input is read. */
const adminApi = new Hono<ApiEnv>()
	.use(originCheck)
	.use(channelMiddleware)
	.use(sessionMiddleware)
	.use(callerCheck(() => 'administrator'))
	.use(limitBody)
	.route('/', adminRouter);

/**
 * The three APIs' types, for the islands' contract (src/lib/api-types.ts derives every request and
 * answer from them, type-only): a route's answer changed here fails `npm run check` in the island.
 */
export type PublicApi = typeof publicApi;
export type MemberApi = typeof memberApi;
export type AdminApi = typeof adminApi;

export const api = new Hono<ApiEnv>();
api.onError(errorResponse);
api.route('/public/v1/:domain/:slug', publicApi);
api.route('/v1/:domain/:slug', memberApi);
api.route('/admin/v1/:domain/:slug', adminApi);
// Anything else under an API prefix is answered in the envelope, never by a page.
api.all('/public/v1/*', routeNotFound);
api.all('/v1/*', routeNotFound);
api.all('/admin/v1/*', routeNotFound);
