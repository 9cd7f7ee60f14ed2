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
		expect(
			await memo.read(
				'k',
				1,
				(stamp) => stamp === 1,
				() => Promise.resolve(1),
			),
		).toBe(1);
		expect(
			await memo.read(
				'k',
				2,
				(stamp) => stamp === 2,
				() => Promise.resolve(2),
			),
		).toBe(2);
		await expect(
			memo.read(
				'bad',
				0,
				() => true,
				() => Promise.reject(new Error('D1 down')),
			),
		).rejects.toThrow('D1 down');
		await Promise.resolve();
		expect(
			await memo.read(
				'bad',
				0,
				() => true,
				() => Promise.resolve(3),
			),
		).toBe(3);
	});
	it('answers a stale entry at once while one read replaces it, and waits once it is too old', async () => {
		const memo = createMemo<string>(10);
		const background = (work: Promise<unknown>) => void work;
		let loads = 0;
		let release: () => void = () => undefined;
		const slow = (value: string) => () => {
			loads += 1;
			return new Promise<string>((resolve) => (release = () => resolve(value)));
		};
		const first = memo.readRevalidating('c', 0, 1000, 2000, slow('v1'), background);
		release();
		expect(await first).toBe('v1');
		// Fresh: no read.
		expect(await memo.readRevalidating('c', 999, 1000, 2000, slow('never'), background)).toBe('v1');
		expect(loads).toBe(1);
		// Stale: the old value at once, one read in the background however many ask meanwhile.
		expect(await memo.readRevalidating('c', 1000, 1000, 2000, slow('v2'), background)).toBe('v1');
		expect(await memo.readRevalidating('c', 1500, 1000, 2000, slow('other'), background)).toBe('v1');
		expect(loads).toBe(2);
		release();
		await new Promise((resolve) => setTimeout(resolve, 0));
		// The new value, stamped when its read began.
		expect(await memo.readRevalidating('c', 1999, 1000, 2000, slow('never'), background)).toBe('v2');
		expect(loads).toBe(2);
		// Too old: the read is waited for.
		const waited = memo.readRevalidating('c', 3000, 1000, 2000, slow('v3'), background);
		release();
		expect(await waited).toBe('v3');
		// A failed background read leaves the entry as it was.
		expect(await memo.readRevalidating('c', 4000, 1000, 2000, () => Promise.reject(new Error('D1 down')), background)).toBe('v3');
		await new Promise((resolve) => setTimeout(resolve, 0));
		expect(await memo.readRevalidating('c', 4001, 1000, 2000, slow('never'), background)).toBe('v3');
	});

	it("never hands one request's pending read to another: each waits for its own, and only settled values are shared", async () => {
		const memo = createMemo<string>(10);
		const releases: (() => void)[] = [];
		let loads = 0;
		const slow = () => {
			loads += 1;
			const value = `load ${loads}`;
			return new Promise<string>((resolve) => releases.push(() => resolve(value)));
		};
		// Two requests miss at once: two reads, two promises, neither the other's.
		const first = memo.read('k', 1, (stamp) => stamp === 1, slow);
		const second = memo.read('k', 1, (stamp) => stamp === 1, slow);
		expect(loads).toBe(2);
		expect(second).not.toBe(first);
		for (const release of releases) release();
		expect(await first).toBe('load 1');
		expect(await second).toBe('load 2');
		// Settled: answered from memory, by a promise of this request's own.
		const third = memo.read('k', 1, (stamp) => stamp === 1, slow);
		expect(third).not.toBe(first);
		expect(third).not.toBe(second);
		// (the later of two reads of the same stamp: it read later)
		expect(await third).toBe('load 2');
		expect(loads).toBe(2);
		// An older read that settles after a newer one does not replace it.
		releases.length = 0;
		const newer = memo.read('k', 3, (stamp) => stamp === 3, slow);
		const older = memo.read('k', 2, (stamp) => stamp === 2, slow);
		releases[0]?.();
		await newer;
		releases[1]?.();
		await older;
		expect(await memo.read('k', 3, (stamp) => stamp === 3, slow)).toBe('load 3');
	});

	it("hands a background read to the request's waitUntil, and remembers no read begun before a forget", async () => {
		const memo = createMemo<string>(10);
		const handed: Promise<unknown>[] = [];
		const background = (work: Promise<unknown>) => void handed.push(work);
		await memo.readRevalidating('c', 0, 1000, 2000, () => Promise.resolve('v1'), background);
		expect(handed).toHaveLength(0);
		let release: (value: string) => void = () => undefined;
		const stale = memo.readRevalidating('c', 1500, 1000, 2000, () => new Promise<string>((resolve) => (release = resolve)), background);
		expect(await stale).toBe('v1');
		// The background read is the request's own work, waited for by its waitUntil, not by the next request.
		expect(handed).toHaveLength(1);
		memo.forget('c');
		release('v-before-the-forget');
		await handed[0];
		expect(await memo.readRevalidating('c', 1600, 1000, 2000, () => Promise.resolve('v2'), background)).toBe('v2');
		// A background read whose request was cancelled (it never settles) does not block the next one for ever.
		await memo.readRevalidating('c', 2700, 1000, 2000, () => new Promise<string>(() => undefined), background);
		expect(handed).toHaveLength(2);
		await memo.readRevalidating('c', 2800, 1000, 2000, () => Promise.resolve('v3'), background);
		expect(handed).toHaveLength(2);
	});
});
