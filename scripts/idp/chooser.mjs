/**
 * The local identity provider's sign-in screen: the demo members of the community that asked
 * (the seed's identities, by the seed's rules), a new member, and Cancel. Plain HTML, no script.
 */
import { randomBytes } from 'node:crypto';
import { DEMO_CHANNELS } from '../seed/demo.mjs';

/** @typedef {'GOOGLE' | 'APPLE' | 'X'} ProviderName */
/** @typedef {{ subject: string, nickname: string, provider: ProviderName, label: string }} DemoMember */

/** Member index → the note shown next to the name; index 39 has withdrawn and is not listed. */
const LABELS = /** @type {Record<number, string>} */ ({ 0: 'administrator', 37: 'temporarily banned', 38: 'permanently banned' });

/** Every demo identity: the subject `demo-{domain}-{slug}-{n}` as `scripts/seed/demo.mjs` creates it. */
const DEMO_MEMBERS = DEMO_CHANNELS.flatMap((channel) => {
	const providers = channel.providers.length ? channel.providers : ['GOOGLE'];
	return /** @type {string[]} */ (channel.content.nicknames).slice(0, 39).map((nickname, i) => ({
		channel: `/${channel.domain}/${channel.slug}`,
		subject: `demo-${channel.domain}-${channel.slug}-${i + 1}`,
		nickname,
		provider: /** @type {ProviderName} */ (providers[i % providers.length]),
		label: LABELS[i] ?? '',
	}));
});

/** The demo member's nickname for a subject, if it is one. */
export function demoNickname(/** @type {string} */ subject) {
	return DEMO_MEMBERS.find((member) => member.subject === subject)?.nickname;
}

/**
 * The demo members of the channel `/{domain}/{slug}` who sign in with `provider`.
 * @param {string} channelPath
 * @param {ProviderName} provider
 * @returns {DemoMember[]}
 */
export function demoMembers(channelPath, provider) {
	return DEMO_MEMBERS.filter((member) => member.channel === channelPath && member.provider === provider);
}

/** Escapes text for HTML content and quoted attribute values. */
const escapeHtml = (/** @type {unknown} */ value) => String(value).replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

const STYLE = `
body{margin:0;font:15px/1.5 system-ui,-apple-system,'Segoe UI',sans-serif;background:#eef0f4;color:#1c2030;display:grid;place-items:center;min-height:100vh}
main{background:#fff;border-radius:12px;box-shadow:0 8px 30px rgb(0 0 0/.08);padding:28px;margin:16px;width:min(460px,calc(100vw - 32px));box-sizing:border-box}
h1{font-size:20px;margin:0 0 4px}h2{font-size:15px;margin:20px 0 8px}p{margin:0 0 12px;color:#4d5468;font-size:14px}
ul{list-style:none;margin:0;padding:0;display:grid;gap:6px}
button{font:inherit;color:inherit;padding:10px 14px;border-radius:8px;border:1px solid #c9ceda;background:#fff;text-align:left;cursor:pointer;width:100%}
button:hover{background:#f4f6fa}button:focus-visible,input:focus-visible{outline:3px solid #2f6fde;outline-offset:1px}
.note{color:#5d6478;font-size:13px}
label{display:block;font-weight:600;font-size:14px;margin-bottom:6px}
input{font:inherit;width:100%;box-sizing:border-box;padding:10px 12px;border:1px solid #c9ceda;border-radius:8px;margin-bottom:8px}
.primary{background:#1c2030;color:#fff;border-color:#1c2030;text-align:center}.primary:hover{background:#343a50}
.cancel{margin-top:20px;text-align:center;background:none;border:none;color:#4d5468;text-decoration:underline}
`;

/**
 * The chooser page. `action` receives `account=SUBJECT` or `newAccount=NAME`; `cancel` ends the request.
 * @param {{ title: string, channelPath: string, members: DemoMember[], action: string, cancel: string }} page
 */
export function chooserPage({ title, channelPath, members, action, cancel }) {
	const list = members.length
		? `<ul>${members.map((m) => `<li><button type="submit" name="account" value="${escapeHtml(m.subject)}">Sign in as ${escapeHtml(m.nickname)}${m.label ? ` <span class="note">(${escapeHtml(m.label)})</span>` : ''}</button></li>`).join('')}</ul>`
		: '<p>No demo member of this community signs in with this provider.</p>';
	return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><main>
<h1>${escapeHtml(title)}</h1>
<p>A stand-in for the real provider, for development and tests only. Signing in to ${escapeHtml(channelPath)}.</p>
<section aria-labelledby="demo-members"><h2 id="demo-members">Demo members</h2>
<form method="post" action="${escapeHtml(action)}">${list}</form></section>
<section aria-labelledby="new-member"><h2 id="new-member">A new member</h2>
<form method="post" action="${escapeHtml(action)}">
<label for="new-account">New account name</label>
<input id="new-account" name="newAccount" pattern="[a-z0-9-]{1,40}" maxlength="40" required autocomplete="off" spellcheck="false" aria-describedby="new-account-hint" value="new-${randomBytes(3).toString('hex')}">
<p id="new-account-hint" class="note">Lower-case letters, digits and hyphens.</p>
<button class="primary" type="submit">Continue as a new member</button>
</form></section>
<form method="post" action="${escapeHtml(cancel)}"><button class="cancel" type="submit">Cancel</button></form>
</main></body></html>`;
}

/**
 * A short error page, also used for oidc-provider's own errors.
 * @param {string} title
 * @param {string} message
 */
export function errorPage(title, message) {
	return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p></main></body></html>`;
}
