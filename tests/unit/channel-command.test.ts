/**
 * `npm run channel` answers a request for help with its usage (exit 0) and a wrong option with
 * node's sentence and the usage (exit 2), never a stack trace. Neither opens a database, so the
 * command's `main` runs in this process (tests/unit/operator-command.ts); the scripts smoke of
 * `npm test` runs the bundled command itself (`channel.mjs apply … --dry-run`).
 */
import { describe, expect, it } from 'vitest';
import { main } from '../../scripts/operator/channel';
import { runCommand } from './operator-command';

const run = (...args: string[]) => runCommand(main, args);

describe('npm run channel', () => {
	it.each([['--help'], ['-h'], ['apply', '--help'], ['help']])('%s prints the usage and exits 0', async (...args) => {
		const result = await run(...args);
		expect(result.stderr).not.toMatch(/\n\s+at /);
		expect(result.status).toBe(0);
		expect(result.stdout).toContain('npm run channel -- apply FILE [--dry-run]');
		expect(result.stdout).toContain('npm run channel -- admin grant  --channel DOMAIN/SLUG --member ID');
	});

	it('an unknown option is named, with the usage, exit 2', async () => {
		const result = await run('apply', 'channels/starfall-jp.json', '--dryrun');
		expect(result.stderr).not.toMatch(/\n\s+at /);
		expect(result.status).toBe(2);
		expect(result.stderr).toContain("Unknown option '--dryrun'");
		expect(result.stderr).toContain('Usage:');
	});

	it('a command it does not know gets the usage, exit 2', async () => {
		const result = await run('frobnicate', '--channel', 'starfall/global', '--member', '1005');
		expect(result.status).toBe(2);
		expect(result.stderr).toContain('the command is `apply FILE`, `move DOMAIN/SLUG`, `admin grant` or `admin revoke`');
		expect(result.stderr).toContain('Usage:');
	});
});
