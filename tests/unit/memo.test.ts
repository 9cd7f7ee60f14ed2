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
	it('answers a stale entry at once while one read replaces it, and waits once it is too old', async () => {
		const memo = createMemo<string>(10);
		let loads = 0;
		let release: () => void = () => undefined;
		const slow = (value: string) => () => {
			loads += 1;
			return new Promise<string>((resolve) => (release = () => resolve(value)));
		};
		const first = memo.readRevalidating('c', 0, 1000, 2000, slow('v1'));
		release();
		expect(await first).toBe('v1');
		// Fresh: no read.
		expect(await memo.readRevalidating('c', 999, 1000, 2000, slow('never'))).toBe('v1');
		expect(loads).toBe(1);
		// Stale: the old value at once, one read in the background however many ask meanwhile.
		expect(await memo.readRevalidating('c', 1000, 1000, 2000, slow('v2'))).toBe('v1');
		expect(await memo.readRevalidating('c', 1500, 1000, 2000, slow('other'))).toBe('v1');
		expect(loads).toBe(2);
		release();
		await new Promise((resolve) => setTimeout(resolve, 0));
		// The new value, stamped when its read began.
		expect(await memo.readRevalidating('c', 1999, 1000, 2000, slow('never'))).toBe('v2');
		expect(loads).toBe(2);
		// Too old: the read is waited for.
		const waited = memo.readRevalidating('c', 3000, 1000, 2000, slow('v3'));
		release();
		expect(await waited).toBe('v3');
		// A failed background read leaves the entry as it was.
		expect(await memo.readRevalidating('c', 4000, 1000, 2000, () => Promise.reject(new Error('D1 down')))).toBe('v3');
		await new Promise((resolve) => setTimeout(resolve, 0));
		expect(await memo.readRevalidating('c', 4001, 1000, 2000, slow('never'))).toBe('v3');
	});
});
