/**
 * The browser tests' way past `wrangler dev`'s proxy. wrangler dev runs two workerd processes: a
 * proxy Worker on the port it is given, which forwards every request over HTTP to the Worker's own
 * runtime on a port it picks itself. The proxy costs about as much CPU a request as the Worker
 * (docs/guides/testing.md: 6.8 against 8.7 ms a page). `forwardToWorker()` listens on the public
 * port and passes each connection's bytes, unread, to the Worker's runtime: the requests arrive as
 * sent (the Host, so the origin, is the public port's). The runtime's port is found from /proc (Linux
 * only): the ports the other workerd of wrangler's process tree listens on, the one that answers
 * the ready URL as the proxy does. When that port stops answering (wrangler restarted the runtime),
 * it is found again; when none is found, connections go through the proxy, as before.
 */
import net from 'node:net';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** Every process under `rootPid`, with its command name. */
function descendants(rootPid) {
	const children = new Map();
	const names = new Map();
	for (const entry of readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
			names.set(Number(entry), stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')));
			const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
			children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
		} catch {
			// Gone meanwhile.
		}
	}
	const found = [];
	for (const queue = [rootPid]; queue.length > 0; ) {
		const pid = queue.shift();
		for (const child of children.get(pid) ?? []) {
			found.push({ pid: child, name: names.get(child) });
			queue.push(child);
		}
	}
	return found;
}

/** The workerd processes under `rootPid` (wrangler's): its dev proxy's and the Worker's runtime. */
export function workerdsUnder(rootPid) {
	return descendants(rootPid)
		.filter(({ name }) => name === 'workerd')
		.map(({ pid }) => pid);
}

/** The TCP ports a process listens on (its sockets' inodes, looked up in /proc/net/tcp). */
function listeningPorts(pid) {
	const inodes = new Set();
	try {
		for (const fd of readdirSync(`/proc/${pid}/fd`)) {
			const target = (() => {
				try {
					return readlinkSync(`/proc/${pid}/fd/${fd}`);
				} catch {
					return '';
				}
			})();
			const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
			if (inode) inodes.add(inode);
		}
	} catch {
		return [];
	}
	return readFileSync('/proc/net/tcp', 'utf8')
		.split('\n')
		.slice(1)
		.map((line) => line.trim().split(/\s+/))
		.filter((fields) => fields[3] === '0A' && inodes.has(fields[9]))
		.map((fields) => parseInt(fields[1].split(':')[1], 16));
}

/** The TCP ports that the workerd processes of wrangler's process tree (`wranglerPid`) listen on. */
export function workerdPorts(wranglerPid) {
	return workerdsUnder(wranglerPid).flatMap((pid) => listeningPorts(pid));
}

/**
 * The Worker runtime's own process and port: the port answers `readyPath` with 200, and is not the
 * proxy's process's; null when none does.
 *
 * @returns {Promise<{ pid: number; port: number } | null>}
 */
async function findWorkerRuntime(wranglerPid, proxyPort, readyPath) {
	const workerds = workerdsUnder(wranglerPid);
	const proxy = workerds.find((pid) => listeningPorts(pid).includes(proxyPort));
	for (const pid of workerds.filter((other) => other !== proxy)) {
		for (const port of listeningPorts(pid)) {
			const answer = await fetch(`http://127.0.0.1:${port}${readyPath}`, { redirect: 'manual', signal: AbortSignal.timeout(30_000) }).catch(
				() => null,
			);
			await answer?.body?.cancel();
			if (answer?.status === 200 && answer.headers.get('content-type')?.startsWith('text/html')) return { pid, port };
		}
	}
	return null;
}

/**
 * Listens on `port` and passes every connection to the Worker runtime that wrangler (`wranglerPid`,
 * serving on `proxyPort`) started, once `readyPath` answers there; resolves when listening, with
 * the server and `runtime()`, which resolves, once it is found, to the runtime's process and port
 * (null when connections go through the proxy): a CPU measurement of what a deployment runs counts that
 * process alone (scripts/cpu-probe.mjs --direct, scripts/peer-bench.mjs).
 *
 * @param {{ port: number; wranglerPid: number; proxyPort: number; readyPath: string; log: (line: string) => void }} options
 */
export async function forwardToWorker({ port, wranglerPid, proxyPort, readyPath, log }) {
	/** @type {Promise<number> | null} */
	let target = null;
	/** @type {{ pid: number; port: number } | null} */
	let runtime = null;
	const find = () =>
		(target ??= (async () => {
			for (const deadline = Date.now() + 300_000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 250))) {
				const proxied = await fetch(`http://127.0.0.1:${proxyPort}${readyPath}`, { redirect: 'manual' }).catch(() => null);
				await proxied?.body?.cancel();
				if (proxied?.status !== 200) continue;
				runtime = await findWorkerRuntime(wranglerPid, proxyPort, readyPath);
				log(runtime ? `the Worker's runtime answers on ${runtime.port}` : `no Worker runtime port found: through wrangler's proxy on ${proxyPort}`);
				return runtime?.port ?? proxyPort;
			}
			return proxyPort;
		})());
	const connect = (/** @type {net.Socket} */ client, /** @type {boolean} */ retried) => {
		void find().then((upstreamPort) => {
			const upstream = net.connect(upstreamPort, '127.0.0.1');
			let connected = false;
			upstream.once('connect', () => {
				connected = true;
				client.pipe(upstream).pipe(client);
				client.on('error', () => upstream.destroy());
				client.resume();
			});
			upstream.on('error', () => {
				if (connected || retried) return void client.destroy();
				// wrangler restarted the runtime on another port: find it again.
				target = null;
				runtime = null;
				connect(client, true);
			});
		});
	};
	const server = net.createServer({ pauseOnConnect: true }, (client) => connect(client, false));
	await new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(undefined)));
	void find();
	return { server, runtime: async () => (await find(), runtime) };
}
