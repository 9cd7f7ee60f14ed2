/**
 * The Worker's request pipeline (Astro advanced routing): the JSON API of functions/ first, then
 * Astro's pages. Static assets are answered before this by the Cloudflare adapter.
 */
import { Hono } from 'hono';
import { astro } from 'astro/hono';
import { api } from '../functions/app';

const app = new Hono();
app.route('/', api);
app.use(astro());

export default app;
