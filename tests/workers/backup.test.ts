/**
 * Backups that restore (docs/guides/backups.md): the daily cron writes the demo database to the BACKUPS
 * bucket in bounded runs, going on from where the run before stopped; the backup restores into an empty
 * database with the same rows in every table, the same search results (English and a two-character
 * Korean query) and the same uploads' rows, whose R2 objects the manifest lists. A restore refuses a
 * database that is not empty and a piece that is not the manifest's, and reports an object that is gone.
 * tests/commands/backup-command.test.ts runs `npm run backup` and `npm run restore` on local state folders.
 */
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { beforeEach, describe, expect, it } from 'vitest';
import { runScheduled } from '@functions/shell/scheduled';
import { searchPosts } from '@/server/search/search';
import { postSearchStatements } from '@/server/search-index/search-index';
import { PIECE_ROWS, type BackupManifest } from '@/server/backup/export';
import { BACKUP_CRON, BACKUP_KEEP_DAYS, BACKUP_STEP_PIECES, backupDatabase, bucketFolder } from '@/server/backup/scheduled-backup';
import { RestoreRefused, objectDifferences, restoreBackup } from '@/server/backup/restore';
import * as images from '../fixtures/images';
import { GLOBAL, KOREAN } from './harness';

/** A day's backup slot: 03:10 UTC on a chosen day, and the same time on the days after. */
const SLOT = Date.UTC(2026, 10, 2, 3, 10);
const DAY_MS = 24 * 60 * 60 * 1000;
const FOLDER = 'backups/DB/2026-11-02/';

async function cron(scheduledTime: number, pattern = BACKUP_CRON): Promise<void> {
	const ctx = createExecutionContext();
	await runScheduled(createScheduledController({ scheduledTime, cron: pattern }), env, ctx);
	await waitOnExecutionContext(ctx);
}

const manifestOf = async (folder = FOLDER) => JSON.parse(await (await env.BACKUPS.get(`${folder}manifest.json`))!.text()) as BackupManifest;

/** Every row of every table the manifest lists, in key order: what a restore must give back. */
async function everyRow(manifest: BackupManifest): Promise<Record<string, unknown[]>> {
	const rows: Record<string, unknown[]> = {};
	for (const table of manifest.tables)
		rows[table.name] = (
			await env.DB.prepare(`SELECT * FROM "${table.name}" ORDER BY ${table.key.map((key) => `"${key}"`).join(', ')}`).all()
		).results;
	return rows;
}

/** What readers find: searches in English and Korean, two characters and more, every page's first. */
async function searches(): Promise<unknown[]> {
	const found = [];
	for (const [channel, query] of [
		[GLOBAL.id, 'raid'],
		[GLOBAL.id, 'Starfall'],
		[KOREAN.id, '공략'],
		[KOREAN.id, '레이드'],
	] as const) {
		const results = await searchPosts(env.DB, channel, query, 'ALL', 1);
		found.push({ query, total: results.totalCount, ids: results.posts.map((post) => post.postId) });
	}
	return found;
}

/** An upload with its object and a thumbnail (made at the slot: the hourly cleanup keeps it), and text with line breaks and quotes. */
async function addUploadAndText(): Promise<void> {
	await env.UPLOADS.put('backup0000000000001.png', images.PNG);
	await env.UPLOADS.put('backup0000000000001-thumb.webp', images.PNG);
	await env.DB.prepare(
		"INSERT OR IGNORE INTO uploads (channel_id, member_id, r2_key, thumb_key, content_type, size, created_at) VALUES (1, 1002, 'backup0000000000001.png', 'backup0000000000001-thumb.webp', 'image/png', ?1, ?2)",
	)
		.bind(images.PNG.byteLength, SLOT)
		.run();
	// A post's text with line breaks and a quote, its search entry written by the services' statements.
	const post = await env.DB.prepare('SELECT id, title FROM posts WHERE channel_id = 2 AND channel_seq IS NOT NULL ORDER BY id LIMIT 1').first<{
		id: number;
		title: string;
	}>();
	const body = "line one\nit's line two\r\n레이드 공략";
	await env.DB.batch([
		env.DB.prepare('UPDATE posts SET content_text = ?1 WHERE id = ?2').bind(body, post!.id),
		...postSearchStatements(env.DB, KOREAN.id, post!.id, { title: post!.title, body }),
	]);
}

describe('the daily backup to R2, and its restore', () => {
	beforeEach(async () => {
		for (let listed = await env.BACKUPS.list(); listed.objects.length > 0; listed = await env.BACKUPS.list())
			await env.BACKUPS.delete(listed.objects.map(({ key }) => key));
	});

	it('is written in bounded runs, and restores into an empty database with the same rows, searches and uploads', async () => {
		await addUploadAndText();
		// Before the slot, and on the hourly cleanup's cron, no backup is begun.
		await cron(SLOT - 60 * 60 * 1000);
		await cron(SLOT, '17 * * * *');
		expect((await env.BACKUPS.list()).objects).toEqual([]);
		// A run of two pieces stops there; the state says where; the next runs go on.
		const first = await backupDatabase(env.DB, env.UPLOADS, env.BACKUPS, 'DB', SLOT, { pieces: 2 });
		expect(first).toEqual({ database: 'DB', pieces: 2, finished: null });
		expect(await env.BACKUPS.head(`${FOLDER}manifest.json`)).toBeNull();
		expect(await env.BACKUPS.head('backups/DB/progress.json')).not.toBeNull();
		let runs = 0;
		while (!(await env.BACKUPS.head(`${FOLDER}manifest.json`))) {
			const before = (await env.BACKUPS.list({ prefix: FOLDER })).objects.length;
			await cron(SLOT + (runs + 1) * 10 * 60 * 1000);
			// A run writes at most its budget of pieces (and, when it finishes, the schema and the manifest).
			expect((await env.BACKUPS.list({ prefix: FOLDER })).objects.length - before).toBeLessThanOrEqual(BACKUP_STEP_PIECES + 2);
			runs += 1;
			expect(runs).toBeLessThan(50);
		}
		const manifest = await manifestOf();
		expect(manifest.database).toBe('DB');
		expect(manifest.migrations.length).toBeGreaterThan(30);
		expect(manifest.pieces.every((piece) => piece.rows <= PIECE_ROWS)).toBe(true);
		// The full-text tables and their shadow tables are not exported: the restore builds them.
		expect(manifest.tables.map((table) => table.name).filter((name) => /_search/.test(name))).toEqual([]);
		expect(manifest.schema.virtual).toHaveLength(2);
		const uploads = await env.DB.prepare('SELECT count(*) AS n FROM uploads').first<number>('n');
		expect(manifest.tables.find((table) => table.name === 'uploads')!.rows).toBe(uploads);
		expect(manifest.objects.count).toBeGreaterThanOrEqual(2);
		const objects = (
			await Promise.all(
				manifest.pieces.filter((piece) => piece.table === null).map(async (piece) => (await env.BACKUPS.get(`${FOLDER}${piece.name}`))!.text()),
			)
		).join('');
		expect(objects).toContain(
			JSON.stringify({
				key: 'backup0000000000001.png',
				size: images.PNG.byteLength,
				etag: (await env.UPLOADS.head('backup0000000000001.png'))!.etag,
			}),
		);
		expect(objects).toContain('"key":"backup0000000000001-thumb.webp"');
		// Once done, the day's later runs write nothing.
		// (The other bound databases' backups go on in those runs, under their own folders.)
		const written = (await env.BACKUPS.list({ prefix: FOLDER })).objects.length;
		await cron(SLOT + 3 * 60 * 60 * 1000);
		expect((await env.BACKUPS.list({ prefix: FOLDER })).objects.length).toBe(written);

		const rows = await everyRow(manifest);
		const found = await searches();
		expect((found[2] as { total: number }).total).toBeGreaterThan(0);
		expect((found[3] as { ids: number[] }).ids.length).toBeGreaterThan(0);

		// A database that is not empty is refused, and nothing in it changes.
		await env.DB.prepare("UPDATE posts SET title = 'changed after the backup' WHERE id = (SELECT min(id) FROM posts)").run();
		const refused = await restoreBackup(env.DB, bucketFolder(env.BACKUPS, FOLDER)).catch((error: unknown) => error);
		expect(refused).toBeInstanceOf(RestoreRefused);
		expect((refused as Error).message).toMatch(/holds \d+ tables: restore into an empty one, or give --force/);
		expect(await env.DB.prepare("SELECT count(*) AS n FROM posts WHERE title = 'changed after the backup'").first('n')).toBe(1);
		// So is a backup with an altered piece, before anything is written, even with force.
		const piece = manifest.pieces.find((entry) => entry.table === 'posts')!;
		const original = await (await env.BACKUPS.get(`${FOLDER}${piece.name}`))!.text();
		await env.BACKUPS.put(`${FOLDER}${piece.name}`, original.replace('INSERT', 'insert'));
		await expect(restoreBackup(env.DB, bucketFolder(env.BACKUPS, FOLDER), { force: true })).rejects.toThrow(
			`The piece ${piece.name} is not the one the manifest names`,
		);
		expect(await env.DB.prepare("SELECT count(*) AS n FROM posts WHERE title = 'changed after the backup'").first('n')).toBe(1);
		await env.BACKUPS.put(`${FOLDER}${piece.name}`, original);

		// Into an empty database (force empties it first): the same rows, searches, indexes, triggers and objects.
		const report = await restoreBackup(env.DB, bucketFolder(env.BACKUPS, FOLDER), { bucket: env.UPLOADS, force: true });
		expect(report.rows).toBe(manifest.tables.reduce((sum, table) => sum + table.rows, 0));
		expect(report.search.listed).toBeGreaterThan(0);
		expect(await everyRow(manifest)).toEqual(rows);
		expect(await searches()).toEqual(found);
		const names = (await env.DB.prepare("SELECT name FROM sqlite_master WHERE type IN ('index', 'trigger')").all<{ name: string }>()).results.map(
			(row) => row.name,
		);
		expect(names).toEqual(expect.arrayContaining(['drafts_limit', 'uploads_quota', 'uploads_by_member']));

		// An object the uploads rows name that is gone from R2 is reported.
		await env.UPLOADS.delete('backup0000000000001-thumb.webp');
		expect(await objectDifferences(env.UPLOADS, manifest, bucketFolder(env.BACKUPS, FOLDER))).toEqual([
			expect.stringMatching(/^R2 object backup0000000000001-thumb\.webp: missing; the backup lists size \d+/),
		]);
		// A backup and a restore of the 3.4 MB demo database: about 20 s on a busy 2-core machine.
	}, 120_000);

	it(`starts one backup a day, and deletes the backups older than ${BACKUP_KEEP_DAYS} days`, async () => {
		const old = `backups/DB/${new Date(SLOT - (BACKUP_KEEP_DAYS + 1) * DAY_MS).toISOString().slice(0, 10)}/`;
		const kept = `backups/DB/${new Date(SLOT - (BACKUP_KEEP_DAYS - 1) * DAY_MS).toISOString().slice(0, 10)}/`;
		for (const folder of [old, kept]) await env.BACKUPS.put(`${folder}manifest.json`, '{}');
		await backupDatabase(env.DB, env.UPLOADS, env.BACKUPS, 'DB', SLOT, { pieces: 10_000 });
		await cron(SLOT + DAY_MS);
		expect(await env.BACKUPS.head(`${old}manifest.json`)).toBeNull();
		expect(await env.BACKUPS.head(`${kept}manifest.json`)).not.toBeNull();
		expect(await env.BACKUPS.head(`${FOLDER}manifest.json`)).not.toBeNull();
		// The next day's run began that day's backup.
		expect((await env.BACKUPS.list({ prefix: 'backups/DB/2026-11-03/' })).objects.length).toBeGreaterThan(0);
	});
});
