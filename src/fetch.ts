/**
 * The request pipeline of Astro's handler (advanced routing): the JSON API of functions/ first,
 * then the providers' return (functions/callbacks/sign-in.ts), then Astro's pages, rendered whole. The edge cache and static assets are answered before this (functions/shell/worker.ts).
 */
import { Hono } from 'hono';
import { astro } from 'astro/hono';
import { FetchState } from 'astro/fetch';
import { api } from '@functions/api/app';
import { signInCallback } from '@functions/callbacks/sign-in';
import { emailLinks } from '@functions/callbacks/email-links';

const app = new Hono<{ Variables: { fetchState: FetchState } }>();
app.route('/', api);
app.route('/', signInCallback);
// The email links' POSTs (confirm, one-click unsubscribe), which mail clients send without an Origin.
app.route('/', emailLinks);
// Pages are rendered whole, then sent, not streamed: every read a page makes is in its frontmatter,
// before the first byte either way, so streaming would gain no time and costs CPU on every page
// (Astro's async iterator, a ReadableStream over it, a chunk per flush: docs/decisions/performance.md). The
// answer then has a Content-Length, and its Server-Timing counts every round trip the render made.
app.use(async (context, next) => {
	const state = new FetchState(context.req.raw);
	state.streaming = false;
	// astro() takes the request's state from here (astro/hono: getFetchState).
	context.set('fetchState', state);
	await next();
});
app.use(astro());

export default app;
