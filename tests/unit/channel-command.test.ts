/**
 * `npm run channel` answers a request for help with its usage (exit 0) and a wrong option with
 * node's sentence and the usage (exit 2), never a stack trace. Neither opens a database.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/** Each case starts Node, which takes seconds on a busy machine: an upper bound, not a timing. */
const SPAWN_TIMEOUT_MS = 60_000;

const run = (...args: string[]) => spawnSync(process.execPath, [path.join('scripts', 'channel.mjs'), ...args], { encoding: 'utf8', timeout: 60_000 });

describe('npm run channel', () => {
	it.each([['--help'], ['-h'], ['apply', '--help'], ['help']])(
		'%s prints the usage and exits 0',
		(...args) => {
			const result = run(...args);
			expect(result.stderr).not.toMatch(/\n\s+at /);
			expect(result.status).toBe(0);
			expect(result.stdout).toContain('npm run channel -- apply FILE [--dry-run]');
			expect(result.stdout).toContain('npm run channel -- admin grant  --channel DOMAIN/SLUG --member ID');
		},
		SPAWN_TIMEOUT_MS,
	);

	it(
		'an unknown option is named, with the usage, exit 2',
		() => {
			const result = run('apply', 'channels/starfall-jp.json', '--dryrun');
			expect(result.stderr).not.toMatch(/\n\s+at /);
			expect(result.status).toBe(2);
			expect(result.stderr).toContain("Unknown option '--dryrun'");
			expect(result.stderr).toContain('Usage:');
		},
		SPAWN_TIMEOUT_MS,
	);

	it(
		'a command it does not know gets the usage, exit 2',
		() => {
			const result = run('frobnicate', '--channel', 'starfall/global', '--member', '1005');
			expect(result.status).toBe(2);
			expect(result.stderr).toContain('the command is `apply FILE`, `move DOMAIN/SLUG`, `admin grant` or `admin revoke`');
			expect(result.stderr).toContain('Usage:');
		},
		SPAWN_TIMEOUT_MS,
	);
});
