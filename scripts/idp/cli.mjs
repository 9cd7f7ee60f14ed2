/**
 * Runs the local identity provider on its own:
 *   node scripts/idp/cli.mjs --port 8789 --app-origin http://127.0.0.1:8788 --app-origin http://localhost:8788
 * Prints the Worker's OAUTH_* variables as JSON on one line, then serves until SIGINT or SIGTERM.
 */
import { parseArgs } from 'node:util';
import { startIdentityProvider } from './server.mjs';

const { values } = parseArgs({
	options: {
		port: { type: 'string', default: '8789' },
		host: { type: 'string', default: 'localhost' },
		'app-origin': { type: 'string', multiple: true, default: ['http://127.0.0.1:8788', 'http://localhost:8788'] },
	},
});

const port = Number(values.port);
if (!Number.isInteger(port) || port <= 0 || port > 65535) throw new Error(`--port must be a TCP port, got ${values.port}`);
const idp = await startIdentityProvider({ port, host: values.host, appOrigins: values['app-origin'] });
process.stdout.write(`${JSON.stringify(idp.vars)}\n`);

const stop = () => idp.close().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
