/**
 * `npm run channel`: operator commands for a community, on the services of src/ and the
 * local D1 or, with --remote, the deployed one.
 *
 *   npm run channel -- apply channels/starfall-global.json [--dry-run]
 *   npm run channel -- admin grant  --channel starfall/global --member 1005
 *   npm run channel -- admin revoke --channel starfall/global --member 1005
 *   npm run channel -- move starfall/jp --to DB_2 [--rollback]
 *   npm run channel -- --help
 *
 * `apply` creates or updates a community from its file (JSON, or YAML when it ends in .yaml or
 * .yml; src/server/channels/channel-file.ts): it
 * prints what changes, refuses an invalid file (each field and why) or a refused change and then
 * changes nothing (exit code 2), and with --dry-run only prints. A grant or a revocation holds from
 * the member's next request (the role is read on each), and is written to the community's audit
 * log. A new community goes into the directory's database, or with --database DB_n into a content
 * database (docs/reference/databases.md); `move` is scripts/operator/move.ts. Options: --persist-to DIR, --remote.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { parseChannelFile } from '@/server/channels/channel-file';
import { ApplyRefused, applyCommunityFile, changesAnything, planCommunityFile, type PlacedPlan } from '@/server/channels/apply-file';
import { move } from './move';
import { setMemberRole } from '@/server/members/roles';
import { isAppError } from '@/server/platform/errors';
import { channelPathOf, IdSchema } from '@/schemas/params';
import { openDatabase } from './database';

class UsageError extends Error {}

export const USAGE = `Usage:
  npm run channel -- apply FILE [--dry-run] [--database DB_n]
      Creates or updates a community from its file (JSON, or YAML when FILE ends in .yaml or .yml).
      Prints what changes, then applies it; --dry-run only prints. A new community goes into the
      database bound as --database (default DB, the directory's); an existing one is changed where it
      lives (--database naming another is refused: move it). Run it again to finish a cut-short creation.
  npm run channel -- move DOMAIN/SLUG --to DB_n
      Moves a community into another bound database: copies, verifies, switches, then removes the old
      rows; writes are refused meanwhile (503). Run it again to finish an interrupted move.
  npm run channel -- move DOMAIN/SLUG --rollback
      Abandons an interrupted move before its switch: the copy goes, writes are allowed again.
  npm run channel -- admin grant  --channel DOMAIN/SLUG --member ID
  npm run channel -- admin revoke --channel DOMAIN/SLUG --member ID
      Gives or takes the administrator role (from the member's next request on).

Options:
  --persist-to DIR   the local database's folder (default .wrangler/state)
  --remote           the deployed database instead of the local one
  -h, --help         this text

Exit codes: 0 done (or nothing to change), 2 refused or invalid (nothing was changed).`;

const OPTIONS = {
	channel: { type: 'string' },
	member: { type: 'string' },
	'persist-to': { type: 'string' },
	remote: { type: 'boolean', default: false },
	'dry-run': { type: 'boolean', default: false },
	database: { type: 'string' },
	to: { type: 'string' },
	rollback: { type: 'boolean', default: false },
	help: { type: 'boolean', short: 'h', default: false },
} as const;

export async function main(argv: string[]): Promise<number> {
	let parsed: ReturnType<typeof parseArgs<{ args: string[]; allowPositionals: true; options: typeof OPTIONS }>>;
	try {
		parsed = parseArgs({ args: argv, allowPositionals: true, options: OPTIONS });
	} catch (error) {
		// An unknown option or a missing value: node's own sentence, then the usage, not a stack trace.
		console.error(`channel: ${(error as Error).message}\n\n${USAGE}`);
		return 2;
	}
	const { values, positionals } = parsed;
	if (values.help || positionals[0] === 'help') {
		console.log(USAGE);
		return 0;
	}
	const [group, command] = positionals;
	if (group === 'apply')
		return apply(command, { remote: values.remote, persistTo: values['persist-to'], dryRun: values['dry-run'], database: values.database });
	if (group === 'move') return move(command, { to: values.to, rollback: values.rollback, remote: values.remote, persistTo: values['persist-to'] });
	const [domain, slug] = (values.channel ?? '').split('/');
	const path = channelPathOf({ domain, slug });
	const memberId = IdSchema.safeParse(values.member ?? '');
	try {
		if (group !== 'admin' || (command !== 'grant' && command !== 'revoke'))
			throw new UsageError('the command is `apply FILE`, `move DOMAIN/SLUG`, `admin grant` or `admin revoke`');
		if (!path) throw new UsageError('--channel takes domain/slug, e.g. starfall/global');
		if (!memberId.success) throw new UsageError('--member takes a member id (the userId of users/{userId})');
		const database = await openDatabase({ remote: values.remote, persistTo: values['persist-to'] });
		try {
			const community = await database.community(path.domain, path.slug);
			if (!community) throw new UsageError(`there is no community ${path.domain}/${path.slug}`);
			const { channel } = community;
			const changed = await setMemberRole(community.db, channel.id, memberId.data, command === 'grant' ? 'ADMIN' : 'MEMBER');
			const what = command === 'grant' ? 'is an administrator' : 'is no longer an administrator';
			console.log(`Member ${memberId.data} of ${channel.domain}/${channel.slug} ${what}${changed ? '' : ' (no change)'}.`);
		} finally {
			await database.close();
		}
		return 0;
	} catch (error) {
		if (error instanceof UsageError || isAppError(error)) {
			console.error(`channel: ${error.message}${error instanceof UsageError ? `\n\n${USAGE}` : ''}`);
			return 2;
		}
		throw error;
	}
}

/** `apply FILE`: the plan, printed, then written unless it is refused or a dry run. */
async function apply(
	file: string | undefined,
	options: { remote: boolean; persistTo: string | undefined; dryRun: boolean; database: string | undefined },
): Promise<number> {
	if (!file) {
		console.error(`channel: apply takes the path of a community file, e.g. channels/starfall-global.json\n\n${USAGE}`);
		return 2;
	}
	let text: string;
	try {
		text = readFileSync(file, 'utf8');
	} catch (error) {
		console.error(`channel: cannot read ${file}: ${(error as Error).message}`);
		return 2;
	}
	const parsed = parseChannelFile(text, /\.ya?ml$/i.test(file) ? 'yaml' : 'json');
	if (!parsed.ok) {
		console.error(`channel: ${file} is not a valid community file; nothing was changed:`);
		for (const problem of parsed.problems) console.error(`  ${problem}`);
		return 2;
	}
	const database = await openDatabase({ remote: options.remote, persistTo: options.persistTo });
	try {
		// An existing community is changed where it lives; a new one is made in --database
		// (src/server/channels/apply-file.ts, docs/reference/databases.md).
		let placed: PlacedPlan;
		try {
			placed = await planCommunityFile(database.databases, parsed.file, options.database);
		} catch (error) {
			if (!(error instanceof ApplyRefused)) throw error;
			console.error(`channel: ${error.message}; nothing was changed`);
			return 2;
		}
		const { plan } = placed;
		const name = `${parsed.file.domain}/${parsed.file.slug}`;
		if (plan.refusals.length > 0) {
			console.error(`channel: ${file} asks for changes that are refused; nothing was changed:`);
			for (const refusal of plan.refusals) console.error(`  ${refusal}`);
			return 2;
		}
		if (!changesAnything(placed)) {
			console.log(`${name}: no changes.`);
			return 0;
		}
		const what = plan.creates
			? `a new community in ${placed.home}`
			: plan.changes.length === 0
				? `the directory's row of the community in ${placed.home} is missing`
				: `${plan.changes.length} change${plan.changes.length === 1 ? '' : 's'}`;
		console.log(`${name}: ${what}${options.dryRun ? ' (dry run: nothing written)' : ''}`);
		for (const change of plan.changes) console.log(`  ${change}`);
		if (options.dryRun) return 0;
		const { moved } = await applyCommunityFile(database.databases, placed);
		console.log(`Applied to ${name}${moved > 0 ? `; ${moved} posts moved in or out of All Posts and search` : ''}.`);
		return 0;
	} finally {
		await database.close();
	}
}
