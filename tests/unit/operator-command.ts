/**
 * Runs an operator command's `main` (scripts/operator/) in the test's own process, as
 * scripts/lib/operator.mjs runs its bundle on Node: its exit code and what it printed. Starting
 * Node, bundling the command and importing wrangler again for each case took seconds a case.
 */
import { format } from 'node:util';
import { vi } from 'vitest';

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
