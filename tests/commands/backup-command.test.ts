/**
 * `npm run backup` and `npm run restore` on local state folders (real local D1s through wrangler and
 * workerd): a small database (a Korean community, its members, posts with line breaks and quotes, an
 * upload whose R2 object is gone) is backed up to a folder and restored into a second, empty state
 * folder, which then holds the same rows and finds the same posts for an English and a two-character
 * Korean search. A second restore into it is refused (exit 2) and changes nothing. The daily backup to
 * R2 and the restore's checks are tests/workers/backup.test.ts.
 * What costs here is starting processes (Node, the command's bundle, wrangler, a workerd): the source
 * is made in one wrangler command (not two a binding and one more for the data), and the refusals
 * that open no database run the command's `main` in this process (tests/unit/operator-command.ts).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { executeFile, wrangler } from '../../scripts/lib/wrangler.mjs';
import { main } from '../../scripts/operator/backup';
import { searchDocument, searchPhrase } from '@/server/search-index/search-text';
import { MIGRATIONS_SQL, runCommand, smallCommunitySql } from '../unit/operator-command';

const ROOT = path.join(import.meta.dirname, '..', '..');
const work = mkdtempSync(path.join(tmpdir(), 'backup-command-'));
const source = path.join(work, 'source');
const target = path.join(work, 'target');
const out = path.join(work, 'backup');

afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Each command starts Node, wrangler and a workerd: an upper bound on a busy machine, not a timing. */
const COMMAND_MS = 180_000;

const run = (script: string, ...args: string[]) =>
	spawnSync(process.execPath, [path.join(ROOT, 'scripts', script), ...args], { cwd: ROOT, encoding: 'utf8', timeout: COMMAND_MS });

const CREATED = 1_790_000_000_000;
const DATA = `${smallCommunitySql(7, 'backup', CREATED, { title: '백업 커뮤니티', board: '공략 게시판', nickname: '백업작가' })}
INSERT INTO posts (id, channel_id, board_id, member_id, title, content, content_text, created_at, board_seq, channel_seq)
	VALUES (70001, 7, 70, 7001, '레이드 공략 정리', '{"type":"doc","blocks":[]}', '첫 줄
it''s the second line, raid notes', ${CREATED}, 1, 1);
INSERT INTO posts (id, channel_id, board_id, member_id, title, content, content_text, created_at, board_seq, channel_seq)
	VALUES (70002, 7, 70, 7001, 'Raid schedule', '{"type":"doc","blocks":[]}', '공략 없음', ${CREATED + 1000}, 2, 2);
INSERT INTO posts (id, channel_id, board_id, member_id, title, content, content_text, created_at, deleted_at)
	VALUES (70003, 7, 70, 7001, '지운 공략', '{"type":"doc","blocks":[]}', 'gone', ${CREATED + 2000}, ${CREATED + 3000});
INSERT INTO uploads (channel_id, member_id, r2_key, content_type, size, created_at, post_id)
	VALUES (7, 7001, 'backupcommand00001.png', 'image/png', 68, ${CREATED}, 70001);
`;

/** The source's search entries, as the services write them: the restore builds them again from the rows. */
const BASE = 7 * 2 ** 32;
const entry = (text: string) => `'${searchDocument(text).replace(/'/g, "''")}'`;
const INDEX = `
INSERT INTO post_search (rowid, title, body) VALUES (${BASE + 70001}, ${entry('레이드 공략 정리')}, ${entry("첫 줄\nit's the second line, raid notes")});
INSERT INTO post_search (rowid, title, body) VALUES (${BASE + 70002}, ${entry('Raid schedule')}, ${entry('공략 없음')});
INSERT INTO member_search (rowid, nickname) VALUES (${BASE + 7001}, ${entry('백업작가')});
`;

/** The rows of the tables the data touches, and what searches find, in one wrangler command. */
function snapshot(persistTo: string): unknown[] {
	const searches = ['공략', 'raid', '백업작가'].map(
		(query) => `SELECT '${query}' AS q, rowid AS id FROM post_search WHERE post_search MATCH '{title body} : ${searchPhrase(query)}'`,
	);
	const sql = [
		'SELECT * FROM channels WHERE id = 7',
		'SELECT * FROM boards WHERE channel_id = 7',
		'SELECT * FROM members WHERE channel_id = 7',
		'SELECT * FROM posts WHERE channel_id = 7 ORDER BY id',
		'SELECT * FROM uploads ORDER BY id',
		`${searches.join(' UNION ALL ')} ORDER BY q, id`,
		`SELECT rowid AS id FROM member_search WHERE member_search MATCH 'nickname : ${searchPhrase('백업')}'`,
	]
		.map((statement) => `${statement};`)
		.join(' ');
	const answer = wrangler(['d1', 'execute', 'DB', '--local', '--persist-to', persistTo, '--json', '--command', sql], { quiet: true });
	return (JSON.parse(answer) as { results: unknown[] }[]).map((statement) => statement.results);
}

describe('npm run backup and npm run restore', () => {
	it(
		'restore a backup folder into an empty local database: the same rows and searches; a second restore is refused',
		() => {
			// The migrations as scripts/lib/wrangler.mjs `migrate` writes them, then the data: one wrangler command.
			const file = path.join(work, 'data.sql');
			writeFileSync(file, `${MIGRATIONS_SQL}${DATA}${INDEX}`);
			executeFile(file, source);
			const before = snapshot(source);
			const searched = before[5] as { q: string; id: number }[];
			expect(searched.filter(({ q }) => q === '공략').length).toBe(2);
			expect(searched.filter(({ q }) => q === 'raid').length).toBe(2);

			const backup = run('backup.mjs', '--persist-to', source, '--out', out);
			expect(backup.stderr).not.toMatch(/\n\s+at /);
			expect(backup.status).toBe(0);
			expect(backup.stdout).toMatch(/Backed up DB: \d+ tables, \d+ rows, 1 R2 objects listed \(1 missing\)/);
			const manifest = JSON.parse(readFileSync(path.join(out, 'manifest.json'), 'utf8')) as {
				tables: { name: string; rows: number }[];
				schema: { virtual: string[] };
			};
			expect(manifest.tables.find((table) => table.name === 'posts')!.rows).toBe(3);
			expect(manifest.tables.some((table) => table.name.startsWith('post_search'))).toBe(false);
			expect(manifest.schema.virtual).toHaveLength(2);
			// Plain SQL a line: the post's line break is in hex, not in the line.
			const posts = readdirSync(out).find((name) => name.endsWith('-posts.sql'))!;
			expect(readFileSync(path.join(out, posts), 'utf8').trim().split('\n')).toHaveLength(3);

			const restored = run('restore.mjs', '--from', out, '--persist-to', target);
			expect(restored.stderr).not.toMatch(/\n\s+at /);
			expect(restored.status).toBe(0);
			expect(restored.stdout).toMatch(
				/search index rebuilt \(2 listed posts of 3, 1 members\); every table's rows and checksum and 1 R2 objects verified/,
			);
			expect(snapshot(target)).toEqual(before);

			const again = run('restore.mjs', '--from', out, '--persist-to', target);
			expect(again.status).toBe(2);
			expect(again.stderr).toMatch(/The database holds \d+ tables: restore into an empty one, or give --force/);
			expect(snapshot(target)).toEqual(before);
		},
		6 * COMMAND_MS,
	);

	it(
		'refuses a folder that is not a backup, and a wrong option, with exit 2',
		async () => {
			const notBackup = await runCommand(main, ['restore', '--from', work, '--persist-to', path.join(work, 'none')]);
			expect(notBackup.status).toBe(2);
			expect(notBackup.stderr).toContain('holds no manifest.json: not a backup folder');
			const wrong = await runCommand(main, ['backup', '--remote', '--local']);
			expect(wrong.status).toBe(2);
			expect(wrong.stderr).toContain('Give --local or --remote, not both.');
		},
		COMMAND_MS,
	);
});
