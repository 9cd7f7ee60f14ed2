/**
 * The suggestions menu of an @ being typed, for the comment box and the editor alike: the members
 * for the candidate's query (answered at once from what the source already knows, else asked after
 * a 200 ms pause, the stale request aborted), the option the arrows are on, and Escape's dismissal.
 * The field (a textarea or the editor) owns the caret, the keys and the replacement.
 */
import { useEffect, useId, useState } from 'react';
import type { Mention } from '@/lib/mentions';
import type { MentionCandidate } from './candidate';
import { filterMembers, type MentionSource } from './suggestions';

const DEBOUNCE_MS = 200;

/** What a key does to an open menu (the field prevents the key's default when one applies). */
export type MenuKey = 'next' | 'previous' | 'pick' | 'close';

/** The menu's action for a key press, or null for a key the field keeps. */
export function menuKey(event: { key: string; shiftKey: boolean; altKey: boolean; ctrlKey: boolean; metaKey: boolean }): MenuKey | null {
	if (event.altKey || event.ctrlKey || event.metaKey) return null;
	if (event.key === 'ArrowDown') return 'next';
	if (event.key === 'ArrowUp') return 'previous';
	if ((event.key === 'Enter' || event.key === 'Tab') && !event.shiftKey) return 'pick';
	return event.key === 'Escape' ? 'close' : null;
}

export interface MentionMenu {
	/** The listbox's id; each option's is `${listId}-{index}`. */
	listId: string;
	open: boolean;
	members: Mention[];
	active: number;
	/** The candidate's query was answered with nobody (for the live region's "mention.none"). */
	none: boolean;
	/** Runs a key on the open menu: true when it did something (the field prevents the default then). */
	onKey(key: MenuKey | null, pick: (member: Mention) => void): boolean;
	setActive(index: number): void;
}

export function useMentionMenu(source: MentionSource | null, candidate: MentionCandidate | null): MentionMenu {
	const query = source ? (candidate?.query ?? null) : null;
	const [answer, setAnswer] = useState<{ query: string; members: Mention[] } | null>(null);
	const [active, setActive] = useState(0);
	const [dismissed, setDismissed] = useState<string | null>(null);
	const listId = useId();
	const where = candidate && query ? `${candidate.start}:${query}` : null;

	useEffect(() => {
		if (!source || !query || source.known(query)) return;
		const controller = new AbortController();
		const timer = setTimeout(() => {
			source.ask(query, controller.signal).then(
				(members) => setAnswer({ query, members }),
				() => undefined,
			);
		}, DEBOUNCE_MS);
		return () => {
			clearTimeout(timer);
			controller.abort();
		};
	}, [source, query]);
	useEffect(() => setActive(0), [where]);

	const known = source && query ? source.known(query) : null;
	// While a query waits for its answer, the last answer narrowed to it.
	const members = !query ? [] : (known ?? (answer ? filterMembers(answer.members, query) : []));
	const shown = where !== null && where !== dismissed;
	const open = shown && members.length > 0;
	const current = Math.min(active, members.length - 1);
	return {
		listId,
		open,
		members,
		active: current,
		none: shown && known !== null && known.length === 0,
		setActive,
		onKey(key, pick) {
			if (!open || !key) return false;
			if (key === 'next' || key === 'previous') setActive((current + (key === 'next' ? 1 : members.length - 1)) % members.length);
			else if (key === 'close') setDismissed(where);
			else pick(members[current]!);
			return true;
		},
	};
}
