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

const publicApi = new Hono<ApiEnv>()
	.use(originCheck)
	.use(channelMiddleware)
	.route('/layouts', layoutsRouter)
	.route('/', boardsRouter)
	.route('/', postsRouter)
	.route('/', usersRouter)
	.route('/', authRouter)
	// A known path asked with the wrong method.
	.all('/posts/:postId/views', methodNotAllowed);

export const api = new Hono<ApiEnv>();
api.onError(errorResponse);
api.route('/public/v1/:domain/:slug', publicApi);
// Anything else under an API prefix is answered in the envelope, never by a page.
api.all('/public/v1/*', routeNotFound);
api.all('/v1/*', routeNotFound);
api.all('/admin/v1/*', routeNotFound);
