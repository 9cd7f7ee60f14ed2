/**
 * `npm run channel`: operator commands for a community (issue 12), on the services of src/ and the
 * local D1 or, with --remote, the deployed one.
 *
 *   npm run channel -- admin grant  --channel starfall/global --member 1005
 *   npm run channel -- admin revoke --channel starfall/global --member 1005
 *
 * A grant or a revocation holds from the member's next request (the role is read on each), and is
 * written to the community's audit log. Options: --persist-to DIR, --remote.
 */
import { parseArgs } from 'node:util';
import { findChannel } from '@/server/channels/channels';
import { setMemberRole } from '@/server/members/roles';
import { isAppError } from '@/server/platform/errors';
import { channelPathOf, IdSchema } from '@/schemas/params';
import { openDatabase } from './database';

class UsageError extends Error {}

export async function main(argv: string[]): Promise<number> {
	const { values, positionals } = parseArgs({
		args: argv,
		allowPositionals: true,
		options: { channel: { type: 'string' }, member: { type: 'string' }, 'persist-to': { type: 'string' }, remote: { type: 'boolean', default: false } },
	});
	const [group, command] = positionals;
	const [domain, slug] = (values.channel ?? '').split('/');
	const path = channelPathOf({ domain, slug });
	const memberId = IdSchema.safeParse(values.member ?? '');
	try {
		if (group !== 'admin' || (command !== 'grant' && command !== 'revoke')) throw new UsageError('the command is `admin grant` or `admin revoke`');
		if (!path) throw new UsageError('--channel takes domain/slug, e.g. starfall/global');
		if (!memberId.success) throw new UsageError('--member takes a member id (the userId of users/{userId})');
		const database = await openDatabase({ remote: values.remote, persistTo: values['persist-to'] });
		try {
			const channel = await findChannel(database.db, path.domain, path.slug);
			if (!channel) throw new UsageError(`there is no community ${path.domain}/${path.slug}`);
			const changed = await setMemberRole(database.db, channel.id, memberId.data, command === 'grant' ? 'ADMIN' : 'MEMBER');
			const what = command === 'grant' ? 'is an administrator' : 'is no longer an administrator';
			console.log(`Member ${memberId.data} of ${channel.domain}/${channel.slug} ${what}${changed ? '' : ' (no change)'}.`);
		} finally {
			await database.close();
		}
		return 0;
	} catch (error) {
		if (error instanceof UsageError || isAppError(error)) {
			console.error(`channel: ${error.message}`);
			return 2;
		}
		throw error;
	}
}
