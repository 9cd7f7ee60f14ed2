/** What the admin area's tabs share: the actions and texts, paging, names of people and targets, a stored text shown on demand. */
import { useCallback, useId, useState } from 'react';
import type { Language } from '@/schemas/channel';
import { pageUrls } from '@/lib/urls';
import { fill } from '@/islands/comments/texts';
import type { AdminApi, LogEntry, TargetLabel, Person, StoredText, TargetType } from './api';
import type { AdminTexts } from './texts';

export interface Shared {
	api: AdminApi;
	urls: ReturnType<typeof pageUrls>;
	language: Language;
	texts: AdminTexts;
	/**
	 * Runs an action; on success shows `done` and calls `after`; on failure says why (`forbidden`
	 * for a refusal while the role still holds) and then calls `after`, to show the list as it is now.
	 */
	act: (action: () => Promise<unknown>, done: string, after: () => Promise<void> | void, forbidden?: string) => Promise<void>;
	busy: boolean;
	date: (ms: number) => string;
}

/** The page and order in the address, so that a reload or a shared link opens the same list. */
export function remember(values: Record<string, string | number | null>): void {
	const url = new URL(location.href);
	for (const [key, value] of Object.entries(values)) {
		if (value === null || value === 1 || value === 'newest') url.searchParams.delete(key);
		else url.searchParams.set(key, String(value));
	}
	history.replaceState(history.state, '', url);
}

export function Pager({ page, totalPages, texts, onGo }: { page: number; totalPages: number; texts: AdminTexts; onGo: (page: number) => void }) {
	if (totalPages <= 1) return null;
	return (
		<nav className="admin-pager" aria-label={texts['pagination.label']}>
			<button className="button secondary" type="button" disabled={page <= 1} onClick={() => onGo(page - 1)}>
				{texts['pagination.prev']}
			</button>
			<span aria-live="polite">{fill(texts['admin.page'], { page, total: totalPages })}</span>
			<button className="button secondary" type="button" disabled={page >= totalPages} onClick={() => onGo(page + 1)}>
				{texts['pagination.next']}
			</button>
		</nav>
	);
}

export function Name({ person, shared }: { person: Person | null; shared: Shared }) {
	if (!person) return <span className="admin-name">{shared.texts['admin.log.operator']}</span>;
	if (person.nickname === null) return <span className="admin-name">{shared.texts['common.withdrawnMember']}</span>;
	return (
		<a className="admin-name" href={shared.urls.user(person.userId)}>
			{person.nickname}
		</a>
	);
}

/**
 * Show text / Hide text: a post's or comment's text as the database keeps it (hidden and deleted
 * ones too), read from the admin API when first opened, for an appeal or a second look.
 */
export function StoredTextToggle({ type, id, shared }: { type: TargetType; id: number; shared: Shared }) {
	const { texts } = shared;
	const [open, setOpen] = useState(false);
	const [stored, setStored] = useState<StoredText | null>(null);
	const regionId = useId();
	const toggle = async () => {
		if (open || stored) {
			setOpen(!open);
			return;
		}
		setOpen(true);
		try {
			setStored(await shared.api.storedText(type, id));
		} catch (error) {
			setOpen(false);
			await shared.act(
				() => Promise.reject(error),
				'',
				() => undefined,
			);
		}
	};
	return (
		<div className="admin-stored">
			<button
				className="admin-text-toggle"
				type="button"
				aria-expanded={open ? 'true' : 'false'}
				aria-controls={regionId}
				onClick={() => void toggle()}
			>
				{texts[open ? 'admin.text.hide' : 'admin.text.show']}
			</button>
			<div
				id={regionId}
				className="admin-stored-text"
				role="region"
				aria-label={texts['admin.text.label']}
				hidden={!open}
				data-stored-text={`${type}-${id}`}
			>
				{stored ? (
					<>
						<p className="admin-meta">
							{stored.writer.withdrawn ? texts['common.withdrawnMember'] : stored.writer.nickname} · {shared.date(stored.createdAt)}
							{stored.editedAt !== null && <> · {fill(texts['admin.text.edited'], { date: shared.date(stored.editedAt) })}</>}
							{stored.deletedAt !== null && <> · {fill(texts['admin.text.deleted'], { date: shared.date(stored.deletedAt) })}</>}
						</p>
						{stored.title !== null && <p className="admin-stored-title">{stored.title}</p>}
						<p className="admin-quote">{stored.text}</p>
					</>
				) : (
					open && <p className="admin-meta">{texts['admin.loading']}</p>
				)}
			</div>
		</div>
	);
}

/** A list read a page at a time: the page shown, going to another, and reading it again. */
export function usePaged<T extends { page: number; totalPages: number }>(initial: T, load: (page: number) => Promise<T>) {
	const [data, setData] = useState(initial);
	const go = useCallback(
		async (page: number) => {
			let next = await load(page);
			if (next.page > next.totalPages && next.totalPages >= 1) next = await load(next.totalPages);
			setData(next);
			remember({ page: next.page });
		},
		[load],
	);
	return { data, go, reload: () => go(data.page) };
}

export type Target = { type: LogEntry['targetType']; id: number; target: TargetLabel };

/**
 * How a list names a target: a post by its title, a comment by its excerpt, a member by nickname,
 * and by id (#1330) only where the API has nothing to show (deleted, withdrawn, gone).
 */
export function targetName({ type, id, target }: Target, texts: AdminTexts): string {
	const quoted = (text: string) => fill(texts['admin.target.quoted'], { text });
	if (type === 'POST' && target.title !== null) return quoted(target.title);
	if (type === 'COMMENT' && target.excerpt !== null) return quoted(target.excerpt);
	if (type === 'MEMBER' && target.nickname !== null) return target.nickname;
	return `#${id}`;
}

/** Where a target's link goes: the post, the comment in its post, the member's page; none for the community. */
export function targetHref({ type, id, target }: Target, urls: Shared['urls']): string | null {
	if (type === 'POST') return urls.post(target.postId ?? id);
	if (type === 'COMMENT') return target.postId === null ? null : `${urls.post(target.postId)}?commentId=${id}#comment-${id}`;
	if (type === 'MEMBER') return urls.user(id);
	return null;
}

/** A comment's post, by title, after the comment's own name. */
export function InPost({ type, target, shared }: Target & { shared: Shared }) {
	if (type !== 'COMMENT' || target.title === null || target.postId === null) return null;
	return (
		<span className="admin-meta" data-target-post>
			{' · '}
			<a href={shared.urls.post(target.postId)}>{fill(shared.texts['admin.target.quoted'], { text: target.title })}</a>
		</span>
	);
}

/** A closed report's target, named and linked. */
export function TargetName({ shared, ...named }: Target & { shared: Shared }) {
	const href = targetHref(named, shared.urls);
	const name = targetName(named, shared.texts);
	return (
		<span className="admin-target" data-target-name>
			{href ? <a href={href}>{name}</a> : name}
			<InPost {...named} shared={shared} />
		</span>
	);
}
