/**
 * The bench's D1 latency layer stays out of a normal build (scripts/lib/latency-bench.mjs): no source
 * of the Worker imports it, the bench refuses a build that holds its code, and the bench's copy gets
 * it only through an entry and a configuration of its own beside the built one.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { assertNoLatencyLayer, latencyConfig } from '../../scripts/lib/latency-bench.mjs';
import { LATENCY_MARK } from '../../scripts/lib/d1-latency.mjs';

const made: string[] = [];
afterEach(() => {
	for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A build's layout: server/entry.mjs and server/wrangler.json, client/ beside it. */
function fakeBuild(entry: string): string {
	const dir = mkdtempSync(path.join(tmpdir(), 'latency-build-'));
	made.push(dir);
	mkdirSync(path.join(dir, 'server', 'chunks'), { recursive: true });
	mkdirSync(path.join(dir, 'client'), { recursive: true });
	writeFileSync(path.join(dir, 'server', 'entry.mjs'), entry);
	writeFileSync(path.join(dir, 'server', 'wrangler.json'), JSON.stringify({ name: 'community-board', main: 'entry.mjs', no_bundle: true }));
	return dir;
}

describe('the bench D1 latency layer', () => {
	it('is imported by nothing the Worker is built from', () => {
		const sources = ['src', 'functions'].flatMap((root) =>
			readdirSync(root, { recursive: true, withFileTypes: true })
				.filter((entry) => entry.isFile())
				.map((entry) => path.join(entry.parentPath, entry.name)),
		);
		expect(sources.length).toBeGreaterThan(100);
		const holding = [...sources, 'astro.config.mjs', 'wrangler.toml'].filter((file) =>
			/d1-latency|latency-bench|Bench-D1-Latency/i.test(readFileSync(file, 'utf8')),
		);
		expect(holding).toEqual([]);
	});

	it('is refused in a build that holds its code, wherever it is', () => {
		const clean = fakeBuild('export default { fetch() { return new Response("ok"); } };');
		expect(() => assertNoLatencyLayer(clean)).not.toThrow();
		const holding = fakeBuild('export default {};');
		writeFileSync(path.join(holding, 'server', 'chunks', 'db.mjs'), `const mark = '${LATENCY_MARK}';`);
		expect(() => assertNoLatencyLayer(holding)).toThrow(/chunks\/db\.mjs/);
	});

	it("is added to the bench's copy as an entry and a configuration of its own, the build's left as they were", () => {
		const dir = fakeBuild('export default {};');
		const config = path.join(dir, 'server', 'wrangler.json');
		const before = readFileSync(config, 'utf8');
		const latency = latencyConfig(config);
		expect(readFileSync(config, 'utf8')).toBe(before);
		expect(JSON.parse(readFileSync(latency, 'utf8'))).toEqual({ name: 'community-board', main: 'bench-latency-entry.mjs', no_bundle: true });
		const entry = readFileSync(path.join(dir, 'server', 'bench-latency-entry.mjs'), 'utf8');
		expect(entry).toContain("import worker from './entry.mjs';");
		expect(entry).toContain('export default latencyWorker(worker, withEnv);');
		expect(readFileSync(path.join(dir, 'server', 'bench-d1-latency.mjs'), 'utf8')).toContain(LATENCY_MARK);
		// Made again over a copy that has it already (a second run on the same dist-bench/).
		expect(() => latencyConfig(config)).not.toThrow();
	});
});
