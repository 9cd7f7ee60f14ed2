/**
 * The CPU time a server's processes spend, read from /proc (Linux): the process `wrangler dev` was
 * started as and every process under it (workerd). On a 2-core machine the load generator competes
 * with the server, so requests per second move a lot between runs; CPU milliseconds per request is
 * the steadier figure.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** /proc/{pid}/stat counts in clock ticks; Linux reports them at 100 a second (USER_HZ). */
const TICKS_PER_SECOND = 100;

function stat(pid) {
	try {
		const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
		// The command name is in parentheses and may hold spaces: the fields start after the last ')'.
		const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
		const name = text.slice(text.indexOf('(') + 1, text.lastIndexOf(')'));
		return { name, ppid: Number(fields[1]), user: Number(fields[11]), system: Number(fields[12]), ticks: Number(fields[11]) + Number(fields[12]) };
	} catch {
		return null;
	}
}

/** The pid and every descendant of it that is running now. */
function processTree(rootPid) {
	const children = new Map();
	for (const name of readdirSync('/proc')) {
		if (!/^\d+$/.test(name)) continue;
		const info = stat(name);
		if (!info) continue;
		const list = children.get(info.ppid) ?? [];
		list.push(Number(name));
		children.set(info.ppid, list);
	}
	const tree = [];
	const queue = [rootPid];
	while (queue.length > 0) {
		const pid = queue.shift();
		tree.push(pid);
		queue.push(...(children.get(pid) ?? []));
	}
	return tree;
}

/**
 * The CPU milliseconds each process of the tree under `rootPid` has used so far, user and system
 * apart, by pid, with the process's name (its command's base name).
 */
export function processTimes(rootPid) {
	const times = new Map();
	for (const pid of processTree(rootPid)) {
		const info = stat(pid);
		if (!info) continue;
		times.set(pid, { name: info.name, userMs: (info.user * 1000) / TICKS_PER_SECOND, systemMs: (info.system * 1000) / TICKS_PER_SECOND });
	}
	return times;
}

/** The CPU milliseconds (user + system) the process tree under `rootPid` has used so far. */
function cpuMsOf(rootPid) {
	let ticks = 0;
	for (const pid of processTree(rootPid)) ticks += stat(pid)?.ticks ?? 0;
	return (ticks * 1000) / TICKS_PER_SECOND;
}

/** Runs `work` and answers its result with the CPU milliseconds the server's processes spent meanwhile. */
export async function withServerCpu(rootPid, work) {
	const before = cpuMsOf(rootPid);
	const result = await work();
	return { result, cpuMs: cpuMsOf(rootPid) - before };
}
