/**
 * `npm run restore -- --from-r2` (docs/guides/backups.md): a backup that the daily backup's code
 * (src/server/backup/scheduled-backup.ts) wrote into the local BACKUPS bucket of one state folder is
 * restored into an empty database of a new state folder (`--r2-persist-to` names the first), which
 * then holds the same rows and finds the same posts for an English and a two-character Korean search;
 * the upload's R2 object is checked in the bucket beside the backup. Real local D1s and R2 through
 * wrangler's platform proxy and workerd. tests/commands/backup-command.test.ts restores a folder.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { getPlatformProxy } from 'wrangler';
import { executeFile } from '../../scripts/lib/wrangler.mjs';
import { backupDatabase } from '@/server/backup/scheduled-backup';
import { searchPhrase } from '@/server/search-index/search-text';
import { MIGRATIONS_SQL, smallCommunitySql } from '../unit/operator-command';

const ROOT = path.join(import.meta.dirname, '..', '..');
const work = mkdtempSync(path.join(tmpdir(), 'restore-from-r2-'));
const cronState = path.join(work, 'cron');
const emptyState = path.join(work, 'empty');

afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Each command starts Node, wrangler and a workerd: an upper bound on a busy machine, not a timing. */
const COMMAND_MS = 180_000;

/** A day's backup slot, after the daily backup's hour. */
const SLOT = Date.UTC(2026, 10, 2, 3, 10);
const FOLDER = 'backups/DB/2026-11-02/';
const DATA = `${smallCommunitySql(9, 'restore', SLOT, { title: '복원 커뮤니티', board: '자유 게시판', nickname: '복원작가' })}
INSERT INTO posts (id, channel_id, board_id, member_id, title, content, content_text, created_at, board_seq, channel_seq)
	VALUES (90001, 9, 90, 9001, '던전 공략', '{"type":"doc","blocks":[]}', 'boss notes', ${SLOT}, 1, 1);
INSERT INTO posts (id, channel_id, board_id, member_id, title, content, content_text, created_at, board_seq, channel_seq)
	VALUES (90002, 9, 90, 9001, 'Dungeon route', '{"type":"doc","blocks":[]}', '공략 순서', ${SLOT + 1000}, 2, 2);
INSERT INTO uploads (channel_id, member_id, r2_key, content_type, size, created_at, post_id)
	VALUES (9, 9001, 'restorefromr2000001.png', 'image/png', 3, ${SLOT}, 90001);
`;

const proxyOf = (state: string) =>
	getPlatformProxy<{ DB: D1Database; UPLOADS: R2Bucket; BACKUPS: R2Bucket }>({
		configPath: path.join(ROOT, 'wrangler.toml'),
		persist: { path: path.join(state, 'v3') },
		remoteBindings: false,
	});

/** The rows the data made, and the posts each search finds. */
async function snapshot(db: D1Database): Promise<unknown[]> {
	const rows = await db.batch([
		db.prepare('SELECT * FROM channels WHERE id = 9'),
		...['boards', 'members', 'posts', 'uploads'].map((table) => db.prepare(`SELECT * FROM ${table} WHERE channel_id = 9 ORDER BY id`)),
	]);
	const found = await db.batch(
		['공략', 'dungeon'].map((query) =>
			db.prepare(`SELECT rowid AS id FROM post_search WHERE post_search MATCH ?1 ORDER BY rowid`).bind(`{title body} : ${searchPhrase(query)}`),
		),
	);
	return [...rows, ...found].map((result) => result.results);
}

describe('npm run restore -- --from-r2', () => {
	it(
		'restores the daily backup from the local BACKUPS bucket into an empty local database, search included',
		async () => {
			const file = path.join(work, 'data.sql');
			// The schema (every migration, recorded as wrangler records them) and the data, in one command.
			writeFileSync(file, `${MIGRATIONS_SQL}${DATA}`);
			executeFile(file, cronState);
			const cron = await proxyOf(cronState);
			let before: unknown[];
			try {
				await cron.env.UPLOADS.put('restorefromr2000001.png', new Uint8Array([1, 2, 3]));
				// The daily backup's own step, as the cron runs it: done in one run at this size.
				expect(await backupDatabase(cron.env.DB, cron.env.UPLOADS, cron.env.BACKUPS, 'DB', SLOT, { pieces: 1000 })).toMatchObject({
					finished: FOLDER,
				});
				before = await snapshot(cron.env.DB);
			} finally {
				await cron.dispose();
			}

			const restored = spawnSync(
				process.execPath,
				[path.join(ROOT, 'scripts', 'restore.mjs'), '--from-r2', FOLDER, '--r2-persist-to', cronState, '--persist-to', emptyState],
				{ cwd: ROOT, encoding: 'utf8', timeout: COMMAND_MS },
			);
			expect(restored.stderr).not.toMatch(/\n\s+at /);
			expect([restored.status, restored.stdout]).toEqual([
				0,
				expect.stringMatching(
					/Restored DB from backups\/DB\/2026-11-02\/: .*search index rebuilt \(2 listed posts of 2, 1 members\); every table's rows and checksum and 1 R2 objects verified/,
				),
			]);

			const after = await proxyOf(emptyState);
			try {
				const found = await snapshot(after.env.DB);
				// The rows as they were; the search entries (never backed up: the restore builds them) find both posts.
				expect(found.slice(0, -2)).toEqual(before.slice(0, -2));
				expect(found.slice(-2)).toEqual([[{ id: 9 * 2 ** 32 + 90001 }, { id: 9 * 2 ** 32 + 90002 }], [{ id: 9 * 2 ** 32 + 90002 }]]);
			} finally {
				await after.dispose();
			}
		},
		3 * COMMAND_MS,
	);
});
