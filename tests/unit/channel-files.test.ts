/**
 * The demo communities' files (channels/*.json) are valid community files, written out in full (the
 * seed reads them as they are, so no field may rely on a default), and the file rules refuse each
 * kind of mistake with the field and the reason.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { ChannelFileSchema, parseChannelFile } from '@/server/channels/channel-file';

const DIR = path.join(process.cwd(), 'channels');
const files = readdirSync(DIR).filter((name) => name.endsWith('.json'));
const demo = () =>
	JSON.parse(readFileSync(path.join(DIR, 'pixelfarm-main.json'), 'utf8')) as Record<string, unknown> & {
		boards: Record<string, unknown>[];
		tree: Record<string, unknown>[];
	};

describe('the demo channel files', () => {
	it('are the five demo communities', () => {
		expect(files.sort()).toEqual(['pixelfarm-main.json', 'starfall-global.json', 'starfall-jp.json', 'starfall-kr.json', 'starfall-tw.json']);
	});

	it.each(files)('%s is valid and complete', (name) => {
		const raw: unknown = JSON.parse(readFileSync(path.join(DIR, name), 'utf8'));
		const parsed = ChannelFileSchema.safeParse(raw);
		expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
		expect(parsed.data).toEqual(raw);
	});
});

describe('a community file', () => {
	const problems = (change: (file: ReturnType<typeof demo>) => void) => {
		const file = demo();
		change(file);
		const result = parseChannelFile(JSON.stringify(file));
		return result.ok ? [] : result.problems;
	};

	it('may be YAML: the same community reads the same, and broken YAML is refused', () => {
		for (const name of files) {
			const json = readFileSync(path.join(DIR, name), 'utf8');
			const fromJson = parseChannelFile(json);
			expect(fromJson.ok).toBe(true);
			expect(parseChannelFile(stringify(JSON.parse(json)), 'yaml')).toEqual(fromJson);
		}
		expect(parseChannelFile('domain: [unclosed', 'yaml')).toMatchObject({
			ok: false,
			problems: [expect.stringMatching(/^\(file\): not valid YAML: /)],
		});
		expect(parseChannelFile('domain: a\ndomain: b\n', 'yaml')).toMatchObject({
			ok: false,
			problems: [expect.stringMatching(/^\(file\): not valid YAML: .*unique/i)],
		});
		// YAML 1.2: an unquoted `no` is the text "no", never false.
		const file = demo();
		const yaml = stringify(file).replace(/^(\s*)slug: .*$/m, '$1slug: no');
		expect(parseChannelFile(yaml, 'yaml')).toMatchObject({ ok: true, file: { slug: 'no' } });
		expect(parseChannelFile('[]', 'yaml')).toMatchObject({ ok: false, problems: [expect.stringMatching(/^\(file\): /)] });
	});

	it('names each bad field and why', () => {
		expect(parseChannelFile('{ not json')).toMatchObject({ ok: false, problems: [expect.stringMatching(/^\(file\): not valid JSON/)] });
		expect(problems((file) => delete file['domain'])).toEqual(['domain: Invalid input: expected string, received undefined']);
		expect(problems((file) => (file['domain'] = 'admin'))).toEqual(['domain: is reserved']);
		expect(problems((file) => (file['header'] = { ...(file['header'] as object), keyColor: 'green' }))).toEqual([
			'header.keyColor: must be a colour like #4f46e5',
		]);
		expect(problems((file) => (file.boards[2]!['name'] = ''))).toEqual([expect.stringMatching(/^boards\[2\]\.name: /)]);
		expect(problems((file) => (file.boards[1]!['key'] = 'notice'))).toContain('boards[1].key: "notice" is the key of another board');
		expect(problems((file) => (file['headerConfig'] = { ...(file['headerConfig'] as object), topPinnedTargetBoards: ['nowhere'] }))).toEqual([
			'headerConfig.topPinnedTargetBoards[0]: no board has the key "nowhere"',
		]);
		expect(problems((file) => (file['content'] = { exposureType: 'BOARD_SELECTION', exposureBoard: null }))).toEqual([
			'content.exposureBoard: BOARD_SELECTION needs the board the community opens on',
		]);
		expect(problems((file) => (file.tree[1] = { type: 'BOARD', board: 'missing' }))).toContain('tree[1].board: no board has the key "missing"');
		expect(problems((file) => file.tree.push({ type: 'LINK', text: 'Bad', url: 'javascript:alert(1)' }))).toEqual([
			`tree[${demo().tree.length}].url: must be an https URL or a path on this site`,
		]);
		expect(problems((file) => (file['providers'] = ['GOOGLE', 'GOOGLE']))).toEqual(['providers: a provider is listed twice']);
		expect(problems((file) => (file['unknown'] = 1))).toEqual([expect.stringMatching(/Unrecognized key/)]);
		expect(problems((file) => (file['moderation'] = { autoHideReports: 0 }))).toEqual([expect.stringMatching(/^moderation\.autoHideReports: /)]);
		expect(problems((file) => (file['newMembers'] = { maxLinks: -1 }))).toEqual([expect.stringMatching(/^newMembers\.maxLinks: /)]);
		expect(problems((file) => (file['newMembers'] = { maxPosts: 2.5 }))).toEqual([expect.stringMatching(/^newMembers\.maxPosts: /)]);
		expect(problems((file) => (file['newMembers'] = { periodHours: 24, maxLinks: 2, links: 3 }))).toEqual([
			expect.stringMatching(/^newMembers: Unrecognized key/),
		]);
	});

	it('gives new members the defaults for each limit it leaves out (docs/reference/spam-defence.md)', () => {
		const file = demo();
		delete file['newMembers'];
		expect(parseChannelFile(JSON.stringify(file))).toMatchObject({
			ok: true,
			file: { newMembers: { periodHours: 24, maxLinks: 2, maxImages: 1, maxMentions: 2, maxPosts: 3, maxComments: 20 } },
		});
		file['newMembers'] = { periodHours: 72, maxLinks: 0 };
		expect(parseChannelFile(JSON.stringify(file))).toMatchObject({
			ok: true,
			file: { newMembers: { periodHours: 72, maxLinks: 0, maxImages: 1, maxMentions: 2, maxPosts: 3, maxComments: 20 } },
		});
	});
});
