/** `npm run build:pages`: the site built as a Cloudflare Pages project in dist-pages/ (scripts/lib/pages.mjs). */
import { build } from './lib/build.mjs';
import { layOutPages } from './lib/pages.mjs';

build();
console.log(`Pages project: ${layOutPages()} (deploy with: cd dist-pages && npx wrangler pages deploy)`);
