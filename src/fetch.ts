/**
 * The request pipeline of Astro's handler (advanced routing): the JSON API of functions/ first,
 * then the providers' return (functions/sign-in.ts), then Astro's pages. The edge cache and static assets are answered before this (functions/worker.ts).
 */
import { Hono } from 'hono';
import { astro } from 'astro/hono';
import { api } from '@functions/app';
import { signInCallback } from '@functions/sign-in';
import { emailLinks } from '@functions/email-links';

const app = new Hono();
app.route('/', api);
app.route('/', signInCallback);
// The email links' POSTs (confirm, one-click unsubscribe), which mail clients send without an Origin.
app.route('/', emailLinks);
app.use(astro());

export default app;
