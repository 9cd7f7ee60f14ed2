import { describe, expect, it } from 'vitest';
import { createMemo } from '@/server/platform/memo';

describe('the isolate memo', () => {
	it('keeps at most its bound, dropping the least recently used entry first', async () => {
		const memo = createMemo<string>(3);
		const load = (value: string) => () => Promise.resolve(value);
		const always = () => true;
		for (const key of ['a', 'b', 'c']) await memo.read(key, 0, always, load(key));
		await memo.read('a', 0, always, load('a again'));
		for (let i = 0; i < 1000; i += 1) await memo.read(`flood${i}`, 0, always, load('x'));
		expect(memo.size).toBe(3);
		await memo.read('d', 0, always, load('d'));
		expect(await memo.read('d', 0, always, load('reloaded'))).toBe('d');
	});

	it('reads again when an entry is no longer fresh, and forgets a failed read', async () => {
		const memo = createMemo<number>(10);
		expect(await memo.read('k', 1, (stamp) => stamp === 1, () => Promise.resolve(1))).toBe(1);
		expect(await memo.read('k', 2, (stamp) => stamp === 2, () => Promise.resolve(2))).toBe(2);
		await expect(memo.read('bad', 0, () => true, () => Promise.reject(new Error('D1 down')))).rejects.toThrow('D1 down');
		await Promise.resolve();
		expect(await memo.read('bad', 0, () => true, () => Promise.resolve(3))).toBe(3);
	});
});
