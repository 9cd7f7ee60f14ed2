/**
 * The stores the islands share (src/stores/): the session, kept in step with the channel's other
 * tabs; the toast queue; the posts' like and comment counts. Node has BroadcastChannel (another tab
 * is another channel of the same name); the window's storage and its events are stood in for.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { $userId } from '@/stores/user-id';
import { $session, activeMember, changeSession, GUEST, renameMember, startSession, type Session } from '@/stores/session';
import { $toasts, dismissToast, showToast, showToastOnNextPage } from '@/stores/toasts';
import { $postCounts, seedCounts, setCounts } from '@/stores/post-counts';
import { TOAST_STORAGE_KEY } from '@/lib/names';
import type { Role } from '@/lib/roles';

class MemoryStorage {
	readonly items = new Map<string, string>();
	getItem(key: string) {
		return this.items.get(key) ?? null;
	}
	setItem(key: string, value: string) {
		this.items.set(key, value);
	}
	removeItem(key: string) {
		this.items.delete(key);
	}
}

const window = new EventTarget();
const local = new MemoryStorage();
const session = new MemoryStorage();
const KEY = 'app:starfall-global-userId';
const member = (userId: number, nickname: string, role: Role = 'MEMBER'): Session => ({
	kind: 'member',
	member: { userId, nickname, role },
});

const CHANNEL = 'app:starfall-global-session';
/** Another tab of the same channel. */
const otherTab = () => new BroadcastChannel(CHANNEL);
/**
 * `tab` posts `message` and this waits until it has been handed to the store's listener: a probe
 * that joins the channel after the store hears it after the store, so the wait is for that event
 * (and the turn of the event loop it is dispatched in), not for a stretch of time.
 */
function post(tab: BroadcastChannel, message: Session): Promise<void> {
	const probe = new BroadcastChannel(CHANNEL);
	const heard = new Promise<void>((resolve) =>
		probe.addEventListener(
			'message',
			() => {
				probe.close();
				setImmediate(resolve);
			},
			{ once: true },
		),
	);
	tab.postMessage(message);
	return heard;
}

beforeAll(() => {
	vi.stubGlobal('addEventListener', window.addEventListener.bind(window));
	vi.stubGlobal('localStorage', local);
	vi.stubGlobal('sessionStorage', session);
});
afterAll(() => vi.unstubAllGlobals());

describe('the session store', () => {
	beforeEach(() => {
		$session.set(null);
		local.items.clear();
	});

	it('starts with the session the page was rendered for, and keeps one already known', () => {
		expect($session.get()).toBeNull();
		startSession('starfall', 'global', member(1011, 'Mira'));
		expect($session.get()).toEqual(member(1011, 'Mira'));
		startSession('starfall', 'global', GUEST);
		expect($session.get()).toEqual(member(1011, 'Mira'));
	});

	it("gives the API client a signed-in or banned member's user id, none for a guest", () => {
		startSession('starfall', 'global', member(1011, 'Mira'));
		expect($userId.get()).toBe('1011');
		$session.set({ kind: 'banned', member: { userId: 1012, nickname: 'Kai', role: 'MEMBER' }, banEndsAt: null });
		expect($userId.get()).toBe('1012');
		$session.set(GUEST);
		expect($userId.get()).toBeNull();
	});

	it('lets only a member who is not banned act', () => {
		expect(activeMember(member(1011, 'Mira'))).toEqual({ userId: 1011, nickname: 'Mira', role: 'MEMBER' });
		expect(activeMember({ kind: 'banned', member: { userId: 1011, nickname: 'Mira', role: 'ADMIN' }, banEndsAt: 1 })).toBeNull();
		expect(activeMember(GUEST)).toBeNull();
	});

	it("turns signed out when another tab signs out, and takes the same member's new nickname", async () => {
		startSession('starfall', 'global', member(1011, 'Mira'));
		const tab = otherTab();
		await post(tab, member(1011, 'Mira the Bold'));
		expect($session.get()).toEqual(member(1011, 'Mira the Bold'));
		await post(tab, GUEST);
		expect($session.get()).toEqual(GUEST);
		tab.close();
	});

	it("never turns into another member's page, nor a guest's page into a member's", async () => {
		startSession('starfall', 'global', member(1011, 'Mira'));
		const tab = otherTab();
		await post(tab, member(1099, 'Someone else'));
		expect($session.get()).toEqual(member(1011, 'Mira'));
		$session.set(GUEST);
		await post(tab, member(1011, 'Mira'));
		expect($session.get()).toEqual(GUEST);
		tab.close();
	});

	it('turns signed out when another tab removes the stored user id (a logout, or a forced login)', () => {
		startSession('starfall', 'global', member(1011, 'Mira'));
		window.dispatchEvent(Object.assign(new Event('storage'), { key: 'app:starfall-other-userId', newValue: null }));
		expect($session.get()).toEqual(member(1011, 'Mira'));
		window.dispatchEvent(Object.assign(new Event('storage'), { key: KEY, newValue: null }));
		expect($session.get()).toEqual(GUEST);
	});

	it("tells the channel's other tabs of a change made here, and keeps the stored user id in step", async () => {
		const tab = otherTab();
		const heard: Session[] = [];
		const both = new Promise<void>((resolve) =>
			tab.addEventListener('message', (event) => {
				heard.push((event as MessageEvent<Session>).data);
				if (heard.length === 2) resolve();
			}),
		);
		startSession('starfall', 'global', member(1011, 'Mira'));
		renameMember('starfall', 'global', 'Mira the Bold');
		expect($session.get()).toEqual(member(1011, 'Mira the Bold'));
		expect(local.getItem(KEY)).toBe('1011');
		changeSession('starfall', 'global', GUEST);
		expect(local.getItem(KEY)).toBeNull();
		await both;
		expect(heard).toEqual([member(1011, 'Mira the Bold'), GUEST]);
		tab.close();
	});

	it('renames nobody on a guest page', () => {
		startSession('starfall', 'global', GUEST);
		renameMember('starfall', 'global', 'Mira');
		expect($session.get()).toEqual(GUEST);
	});
});

describe('the toast queue', () => {
	it('queues each message with its own id and drops one once it has been shown', () => {
		$toasts.set([]);
		showToast('Saved.');
		showToast('Saved.');
		const [first, second] = $toasts.get();
		expect([first?.message, second?.message]).toEqual(['Saved.', 'Saved.']);
		expect(second?.id).toBeGreaterThan(first?.id ?? Infinity);
		dismissToast(first?.id ?? 0);
		expect($toasts.get()).toEqual([second]);
	});

	it('leaves a message for the next page in sessionStorage', () => {
		showToastOnNextPage('Published.');
		expect(session.getItem(TOAST_STORAGE_KEY)).toBe('Published.');
	});
});

describe('the post counts', () => {
	it("starts from what the page rendered without undoing a newer count, and keeps each post's apart", () => {
		seedCounts(5, { commentCount: 3 });
		setCounts(5, { commentCount: 4 });
		seedCounts(5, { commentCount: 3, likeCount: 7 });
		expect($postCounts.get()[5]).toEqual({ commentCount: 4, likeCount: 7 });
		setCounts(5, { likeCount: 8 });
		setCounts(6, { likeCount: 1 });
		expect($postCounts.get()[5]).toEqual({ commentCount: 4, likeCount: 8 });
		expect($postCounts.get()[6]).toEqual({ likeCount: 1 });
	});
});
