/**
 * The signed-in user as the islands know it (docs/product-rules.md#states: logged in when auth status returns a user;
 * the user id is stored then). Browser only: a module-level store on the Worker would be shared by
 * every request.
 */
import { atom } from 'nanostores';
import { userIdStorageKey } from '@/lib/names';

export interface AuthUser {
	userId: number;
	nickname: string;
}

export const $user = atom<AuthUser | null>(null);
export const $userId = atom<string | null>(null);

export function setUser(domain: string, slug: string, user: AuthUser | null): void {
	$user.set(user);
	$userId.set(user ? String(user.userId) : null);
	try {
		if (user) localStorage.setItem(userIdStorageKey(domain, slug), String(user.userId));
		else localStorage.removeItem(userIdStorageKey(domain, slug));
	} catch {
		// Storage may be unavailable (private mode); the in-memory store still holds the user.
	}
}
