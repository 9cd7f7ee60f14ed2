/**
 * What the local stand-ins of outside services share (scripts/turnstile/, scripts/push/,
 * scripts/mail/): reading a request's body within a limit, and listening on a port of this machine.
 */

/**
 * The request's body as bytes. Past `limit` bytes it throws `tooLarge()` (a stand-in answers it
 * as the service would).
 * @param {import('node:http').IncomingMessage} req
 * @param {number} limit
 * @param {() => Error} [tooLarge]
 * @returns {Promise<Buffer>}
 */
export async function readBody(req, limit, tooLarge = () => new Error('request body too large')) {
	const chunks = [];
	let size = 0;
	for await (const chunk of req) {
		size += chunk.length;
		if (size > limit) throw tooLarge();
		chunks.push(chunk);
	}
	return Buffer.concat(chunks);
}

/**
 * Starts `server` on `host`:`port` (0: a free port) and answers the origin it serves and how to
 * stop it.
 * @param {import('node:http').Server} server
 * @param {number} port
 * @param {string} host
 * @returns {Promise<{ origin: string, close: () => Promise<void> }>}
 */
export async function listen(server, port, host) {
	await new Promise((resolve, reject) => server.once('error', reject).listen(port, host, () => resolve(undefined)));
	const address = server.address();
	const actualPort = typeof address === 'object' && address ? address.port : port;
	return {
		origin: `http://${host}:${actualPort}`,
		close: () => new Promise((resolve) => server.close(() => resolve(undefined))),
	};
}
