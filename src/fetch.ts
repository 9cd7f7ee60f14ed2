/**
 * The Worker's request pipeline (Astro advanced routing): the edge cache for anonymous reads, the
 * JSON API of functions/, then Astro's pages. Static assets are answered before this by the
 * Cloudflare adapter.
 */
import { Hono } from 'hono';
import { astro } from 'astro/hono';
import { api } from '../functions/app';
import { edgeCache } from '../functions/middleware/edge-cache';

const app = new Hono();
app.use(edgeCache);
app.route('/', api);
app.use(astro());

export default app;
