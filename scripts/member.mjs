/**
 * The operator command for bans (the moderation screens come later). It runs the statements of
 * src/server/bans.ts with wrangler against the local D1, or the deployed one with --remote.
 *
 *   npm run member -- ban   --channel starfall/global --member 1005 --days 7 [--reason "Spam"]
 *   npm run member -- ban   --channel starfall/global --member 1005 --until 2027-01-31T12:00Z
 *   npm run member -- ban   --channel starfall/global --member 1005 --permanent
 *   npm run member -- unban --channel starfall/global --member 1005
 *   npm run member -- show  --channel starfall/global --member 1005
 *
 * Options: --persist-to DIR (another local state folder), --remote (the deployed database).
 * Banning ends the member's sessions at once; a temporary ban lifts itself at its end.
 */
import { parseArgs } from 'node:util';
import path from 'node:path';
import { DEFAULT_STATE, wrangler } from './lib/wrangler.mjs';
import { sql } from './seed/demo.mjs';

const { values, positionals } = parseArgs({
	allowPositionals: true,
	options: {
		channel: { type: 'string' },
		member: { type: 'string' },
		days: { type: 'string' },
		until: { type: 'string' },
		permanent: { type: 'boolean', default: false },
		reason: { type: 'string', default: '' },
		'persist-to': { type: 'string', default: DEFAULT_STATE },
		remote: { type: 'boolean', default: false },
	},
});

function fail(message) {
	console.error(`member: ${message}`);
	process.exit(2);
}

const [command] = positionals;
if (!['ban', 'unban', 'show'].includes(command ?? '')) fail('the command is ban, unban or show');
const [domain, slug] = (values.channel ?? '').split('/');
if (!domain || !slug || !/^[a-z0-9.-]+$/.test(domain) || !/^[a-z0-9.-]+$/.test(slug)) fail('--channel takes domain/slug, e.g. starfall/global');
const memberId = Number(values.member);
if (!Number.isSafeInteger(memberId) || memberId < 1) fail('--member takes a member id (the userId of users/{userId})');

function run(statement) {
	const target = values.remote ? ['--remote'] : ['--local', '--persist-to', path.resolve(values['persist-to'])];
	const out = wrangler(['d1', 'execute', 'DB', ...target, '--json', '--command', statement], { quiet: true });
	return JSON.parse(out).flatMap((result) => result.results ?? []);
}

const now = Date.now();
const channelId = `(SELECT id FROM channels WHERE domain = ${sql(domain)} AND slug = ${sql(slug)})`;
const [member] = run(`SELECT m.id, m.nickname, m.withdrawn_at FROM members m WHERE m.id = ${memberId} AND m.channel_id = ${channelId}`);
if (!member) fail(`no member ${memberId} in ${domain}/${slug}`);

if (command === 'ban') {
	if (member.withdrawn_at !== null) fail(`member ${memberId} has withdrawn`);
	let endsAt = null;
	if (!values.permanent) {
		if (values.days) endsAt = now + Number(values.days) * 86_400_000;
		else if (values.until) endsAt = Date.parse(values.until);
		if (!Number.isFinite(endsAt) || endsAt <= now) fail('a temporary ban needs --days N or --until DATE in the future (or use --permanent)');
	}
	const kind = endsAt === null ? 'PERMANENT' : 'TEMPORARY';
	run(
		`INSERT INTO bans (channel_id, member_id, kind, ends_at, reason, created_at) VALUES (${channelId}, ${memberId}, ${sql(kind)}, ${sql(endsAt)}, ${sql(values.reason)}, ${now});
		 DELETE FROM sessions WHERE member_id = ${memberId};`,
	);
	console.log(`Banned ${member.nickname} (${memberId}) in ${domain}/${slug}: ${kind === 'PERMANENT' ? 'permanently' : `until ${new Date(endsAt).toISOString()}`}. Their sessions have ended.`);
} else if (command === 'unban') {
	run(`UPDATE bans SET lifted_at = ${now} WHERE member_id = ${memberId} AND channel_id = ${channelId} AND lifted_at IS NULL;`);
	console.log(`Lifted every ban of ${member.nickname} (${memberId}) in ${domain}/${slug}.`);
} else {
	const bans = run(`SELECT kind, ends_at, reason, created_at, lifted_at FROM bans WHERE member_id = ${memberId} ORDER BY created_at`);
	console.log(JSON.stringify({ member, bans }, null, 2));
}
