/**
 * `npm start`: builds the site, creates, migrates and (the first time) seeds the local D1, starts
 * the local OpenID provider that stands in for Apple, Google and X, the local Turnstile
 * (scripts/turnstile/) and the local mail capture, then serves the demo communities on
 * http://localhost:8788 through wrangler (workerd), with SITE_ORIGIN set to that origin (or to the
 * SITE_ORIGIN of the environment): the links in emails are built on it, and no email is sent without it.
 */
import { build } from './lib/build.mjs';
import { DEFAULT_STATE, ROOT } from './lib/wrangler.mjs';
import { localVars, serveBuild, waitFor } from './lib/server.mjs';
import { startIdentityProvider } from './idp/server.mjs';
import { startTurnstile } from './turnstile/server.mjs';
import { startMailCapture } from './mail/server.mjs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const PORT = Number(process.env.PORT ?? 8788);
const IDP_PORT = Number(process.env.IDP_PORT ?? PORT + 1);
const TURNSTILE_PORT = Number(process.env.TURNSTILE_PORT ?? PORT + 2);
const MAIL_PORT = Number(process.env.MAIL_PORT ?? PORT + 3);

console.log('Building the site…');
build();
console.log('Preparing the local database…');
const seeded = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'seed.mjs'), '--if-empty'], { cwd: ROOT, stdio: 'inherit' });
if (seeded.status !== 0) process.exit(seeded.status ?? 1);

// The origin the site is opened at, as a deployment sets it (docs/guides/deploying.md): it builds the links
// in emails, the sign-in's return and the canonical URLs, and it is the origin writes must come from.
const origin = process.env.SITE_ORIGIN || `http://localhost:${PORT}`;
const idp = await startIdentityProvider({
	port: IDP_PORT,
	appOrigins: [...new Set([origin, `http://localhost:${PORT}`, `http://127.0.0.1:${PORT}`])],
});
// The local Turnstile stand-in: sign-up and a new member's posts show its "I am human" check.
const turnstile = await startTurnstile({ port: TURNSTILE_PORT });
// The local mail capture: the confirmation emails of My Page → Settings, and the reply and mention emails, land there (GET /messages).
const mail = await startMailCapture({ port: MAIL_PORT });
serveBuild({ port: PORT, persistTo: DEFAULT_STATE, vars: localVars({ idp, turnstile, mail, origin }) });
await waitFor(`http://127.0.0.1:${PORT}/`);
console.log(`
The demo communities are ready:
  ${origin}/starfall/global   Starfall Odyssey Global (English; Apple, Google and X sign-in)
  ${origin}/starfall/kr       스타폴 오디세이 한국 커뮤니티 (Korean; Google and Apple sign-in)
  ${origin}/starfall/jp       スターフォール・オデッセイ 日本公式コミュニティ (Japanese; no sign-in)
  ${origin}/starfall/tw       星墜奧德賽 (Traditional Chinese; Google and X sign-in)
  ${origin}/pixelfarm/main    Pixel Farm Community (English, dark theme; Google sign-in)
  ${origin}/public/v1/starfall/global/boards/tree   the JSON API
Sign-in goes to the local identity provider at ${idp.origin}: pick a demo member or a new one.
Sign-up and a new member's posts ask for the local Turnstile check at ${turnstile.origin}.
Open it at ${origin} (SITE_ORIGIN): writes from another address are refused, as in production.
Emails (the confirmation of an address, replies and mentions) land at ${mail.origin}/messages.
Press Ctrl+C to stop.`);
