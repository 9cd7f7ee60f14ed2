/**
 * The request pipeline of Astro's handler (advanced routing): the JSON API of functions/ first,
 * then Astro's pages. The edge cache and static assets are answered before this (functions/worker.ts).
 */
import { Hono } from 'hono';
import { astro } from 'astro/hono';
import { api } from '../functions/app';

const app = new Hono();
app.route('/', api);
app.use(astro());

export default app;
