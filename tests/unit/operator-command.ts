/**
 * Runs an operator command's `main` (scripts/operator/) in the test's own process, as
 * scripts/lib/operator.mjs runs its bundle on Node: its exit code and what it printed. Starting
 * Node, bundling the command and importing wrangler again for each case took seconds a case.
 */
import { format } from 'node:util';
import { vi } from 'vitest';
import { pendingMigrationsSql } from '../../scripts/lib/wrangler.mjs';

export interface CommandResult {
	status: number;
	stdout: string;
	stderr: string;
}

export async function runCommand(main: (argv: string[]) => Promise<number>, argv: string[]): Promise<CommandResult> {
	const stdout: string[] = [];
	const stderr: string[] = [];
	const log = vi.spyOn(console, 'log').mockImplementation((...args) => void stdout.push(`${format(...args)}\n`));
	const error = vi.spyOn(console, 'error').mockImplementation((...args) => void stderr.push(`${format(...args)}\n`));
	try {
		const status = await main(argv);
		return { status, stdout: stdout.join(''), stderr: stderr.join('') };
	} finally {
		log.mockRestore();
		error.mockRestore();
	}
}

/** The names of a community of the commands' tests, in Korean: its title, its board's and its member's. */
export interface SmallCommunityNames {
	title: string;
	board: string;
	nickname: string;
}

/**
 * The SQL of a small Korean community that the backup and restore commands' tests start from
 * (tests/commands/): channel `id` at /{domain}/kr, its board `id`0, identity `id`00 (subject
 * `{domain}-subject`) and member `id`001, all made at `created`. Each test adds its posts and uploads.
 */
export function smallCommunitySql(id: number, domain: string, created: number, { title, board, nickname }: SmallCommunityNames): string {
	return `
INSERT INTO channels (id, domain, slug, title, language, theme_type, key_color, background_color, exposure_type, header_config, footer_config, created_at)
	VALUES (${id}, '${domain}', 'kr', '${title}', 'ko', 'LIGHT', '#4f46e5', '#ffffff', 'ALL', '{}', '{}', ${created});
INSERT INTO boards (id, channel_id, name, created_at) VALUES (${id * 10}, ${id}, '${board}', ${created});
INSERT INTO identities (id, provider, subject, created_at) VALUES (${id * 100}, 'GOOGLE', '${domain}-subject', ${created});
INSERT INTO members (id, channel_id, identity_id, nickname, provider, recent_provider, joined_at)
	VALUES (${id * 1000 + 1}, ${id}, ${id * 100}, '${nickname}', 'GOOGLE', 'GOOGLE', ${created});
`;
}

/** The migrations as scripts/lib/wrangler.mjs `migrate` writes them (wrangler's table of applied migrations, then each file and its row). */
export const MIGRATIONS_SQL = `CREATE TABLE d1_migrations (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL);\n${pendingMigrationsSql(new Set())}`;
