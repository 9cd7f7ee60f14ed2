/**
 * The JSON API (Hono), mounted by the Worker's entry (src/fetch.ts) in front of Astro's pages.
 * These are plain modules, not Cloudflare Pages' file-routed Functions.
 */
import { Hono } from 'hono';
import type { ApiEnv } from './context';
import { channelMiddleware } from './middleware/channel';
import { errorResponse, methodNotAllowed, routeNotFound } from './middleware/errors';
import { originCheck } from './middleware/origin';
import { layoutsRouter } from './api/layouts';
import { boardsRouter } from './api/boards';
import { postsRouter } from './api/posts';
import { usersRouter } from './api/users';
import { authRouter } from './api/auth';
import { accountRouter } from './api/account';
import { sessionMiddleware, sessionError } from './middleware/session';

const publicApi = new Hono<ApiEnv>()
	.use(originCheck)
	.use(channelMiddleware)
	.use(sessionMiddleware)
	// Every request of a banned member is answered with the ban (SPEC §6).
	.use(async (c, next) => {
		if (c.var.session.kind === 'banned') throw sessionError(c.var.session);
		await next();
	})
	.route('/layouts', layoutsRouter)
	.route('/', boardsRouter)
	.route('/', postsRouter)
	.route('/', usersRouter)
	.route('/', authRouter)
	// A known path asked with the wrong method.
	.all('/posts/:postId/views', methodNotAllowed);

/** Member actions: a session (or, for sign-up, the sign-up cookie) and a same-site Origin. */
const memberApi = new Hono<ApiEnv>().use(originCheck).use(channelMiddleware).use(sessionMiddleware).route('/', accountRouter);

export const api = new Hono<ApiEnv>();
api.onError(errorResponse);
api.route('/public/v1/:domain/:slug', publicApi);
api.route('/v1/:domain/:slug', memberApi);
// Anything else under an API prefix is answered in the envelope, never by a page.
api.all('/public/v1/*', routeNotFound);
api.all('/v1/*', routeNotFound);
api.all('/admin/v1/*', routeNotFound);
