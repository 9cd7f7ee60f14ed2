/**
 * The member's session as every island and page script of a page sees it (docs/reference/product-rules.md#states): a guest, a
 * member (user id, nickname, role) or a banned member. `null` until the page's session script has
 * read what the server rendered (src/page-scripts/session-sync.ts), and always on the server, where
 * a module-level store would be shared by every request: an island rendered there shows its props.
 *
 * A change made here (sign-up, a new nickname, logout, withdrawal) reaches the channel's other tabs
 * at once through a BroadcastChannel; a logout or a forced login also removes the stored user id,
 * whose `storage` event tells the other tabs even where BroadcastChannel is missing. Browser only.
 */
import { atom } from 'nanostores';
import { $userId } from '@/stores/user-id';
import type { Role } from '@/lib/roles';
import { userIdStorageKey } from '@/lib/names';

export interface Member {
	userId: number;
	nickname: string;
	role: Role;
}

export type Session = { kind: 'guest' } | { kind: 'member'; member: Member } | { kind: 'banned'; member: Member; banEndsAt: number | null };

export const GUEST: Session = { kind: 'guest' };

export const $session = atom<Session | null>(null);

// Kept in step by hand: `computed` would add its own code to every page of a member.
$session.listen((session) => $userId.set(session && session.kind !== 'guest' ? String(session.member.userId) : null));

/** The member who may act here (write, reply, moderate): signed in and not banned. */
export function activeMember(session: Session): Member | null {
	return session.kind === 'member' ? session.member : null;
}

interface Channel {
	storageKey: string;
	broadcast: BroadcastChannel | null;
}

const channels = new Map<string, Channel>();

/** The channel's link to its other tabs; the first call listens to them too. */
function channelOf(domain: string, slug: string): Channel {
	const name = `${domain}-${slug}`;
	let channel = channels.get(name);
	if (channel) return channel;
	const storageKey = userIdStorageKey(domain, slug);
	channel = { storageKey, broadcast: typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(`app:${name}-session`) };
	channels.set(name, channel);
	channel.broadcast?.addEventListener('message', (event: MessageEvent<Session>) => receive(event.data));
	addEventListener('storage', (event) => {
		if (event.key === storageKey && event.newValue === null) receive(GUEST);
	});
	return channel;
}

/**
 * Another tab's change. Its sign-out (or ban) always applies; its member applies only to the same
 * member (a new nickname): a page rendered for one member never turns into another's.
 */
function receive(next: Session): void {
	const current = $session.get();
	if (!current || current.kind === 'guest') return;
	if (next.kind === 'guest' || next.member.userId === current.member.userId) $session.set(next);
}

/** Seeds the store with the session the page was rendered for and listens to the channel's other tabs. */
export function startSession(domain: string, slug: string, rendered: Session): void {
	if ($session.get() === null) $session.set(rendered);
	channelOf(domain, slug);
}

/** Changes the session here and in the channel's other tabs, and keeps the stored user id (docs/reference/product-rules.md#states) in step. */
export function changeSession(domain: string, slug: string, next: Session): void {
	const channel = channelOf(domain, slug);
	$session.set(next);
	try {
		if (next.kind === 'guest') localStorage.removeItem(channel.storageKey);
		else localStorage.setItem(channel.storageKey, String(next.member.userId));
	} catch {
		// Storage may be unavailable (private mode); the store and the other tabs still know.
	}
	channel.broadcast?.postMessage(next);
}

/** The signed-in member with a new nickname, here and in the channel's other tabs. */
export function renameMember(domain: string, slug: string, nickname: string): void {
	const session = $session.get();
	if (session && session.kind !== 'guest') changeSession(domain, slug, { ...session, member: { ...session.member, nickname } });
}
