/**
 * The browser tests' SQL, inside the test server's own runtime: a Worker that the test servers
 * (scripts/serve-test.mjs, scripts/serve-pages-test.mjs) run beside the site in the same workerd, bound to
 * the same local D1s (wrangler.toml here), so that a test's statement and the site's queue at the one
 * database object instead of meeting each other's lock on the file (SQLITE_BUSY, which failed the site's
 * own statements under load). Reached through scripts/lib/sql-endpoint.mjs; never deployed.
 *
 * A request: POST {"database": "DB" | "DB_N", "sql": "..."}; the answer, JSON { rows } or { error }.
 */
const BINDING = /^DB(_[1-9][0-9]*)?$/;

export default {
	/**
	 * @param {Request} request
	 * @param {Record<string, D1Database>} env
	 */
	async fetch(request, env) {
		try {
			const { database, sql } = /** @type {{ database: unknown; sql: unknown }} */ (await request.json());
			const db = BINDING.test(String(database)) ? env[String(database)] : undefined;
			if (!db) throw new Error(`No D1 database is bound as ${String(database)}`);
			return Response.json({ rows: (await db.prepare(String(sql)).all()).results });
		} catch (error) {
			return Response.json({ error: error instanceof Error ? error.message : String(error) });
		}
	},
};
