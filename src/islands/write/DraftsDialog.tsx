/**
 * The member's server drafts (docs/reference/product-rules.md#data: a draft list with its total count): a modal listing them a
 * page at a time, newest first, each with Load and Delete. Keyboard-usable: the native <dialog>
 * keeps focus inside, Escape closes it, and focus returns to the button that opened it.
 */
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { draftsApi } from './api';
import type { DraftPage } from '@/lib/api-types';
import { formatFullDate } from '@/lib/format-date';
import type { Language } from '@/schemas/channel';
import type { WriteTexts } from './texts';

interface Props {
	open: boolean;
	drafts: ReturnType<typeof draftsApi>;
	language: Language;
	texts: WriteTexts;
	/** Bumped by the form when the list changed behind the dialog (a draft saved). */
	version: number;
	onClose: () => void;
	onLoad: (draftId: number) => void;
	onDelete: (draftId: number) => Promise<boolean>;
}

export default function DraftsDialog({ open, drafts, language, texts, version, onClose, onLoad, onDelete }: Props) {
	const ref = useRef<HTMLDialogElement>(null);
	const id = useId();
	const [page, setPage] = useState(1);
	const [list, setList] = useState<DraftPage | null>(null);
	const [failed, setFailed] = useState(false);

	const load = useCallback(
		async (wanted: number) => {
			setFailed(false);
			try {
				const answer = await drafts.list(wanted);
				// Past the last page (the last draft of a page was deleted): show the one before.
				if (answer.drafts.length === 0 && wanted > 1) return load(wanted - 1);
				setList(answer);
				setPage(answer.page);
			} catch {
				setFailed(true);
			}
		},
		[drafts],
	);

	useEffect(() => {
		const dialog = ref.current;
		if (!dialog) return;
		if (open && !dialog.open) {
			dialog.showModal();
			void load(1);
		}
		if (!open && dialog.open) dialog.close();
	}, [open, load]);

	// The version the dialog was mounted with: opening it already loads its first page.
	const shownVersion = useRef(version);
	useEffect(() => {
		if (open && version !== shownVersion.current) void load(page);
		shownVersion.current = version;
		// Only a change behind the dialog reloads the page it shows.
	}, [version]);

	const remove = async (draftId: number) => {
		if (await onDelete(draftId)) await load(page);
	};

	return (
		<dialog ref={ref} className="dialog-panel drafts-dialog" aria-labelledby={`${id}-title`} onClose={onClose} data-drafts-dialog>
			<header className="drafts-header">
				<h2 id={`${id}-title`}>
					{texts['write.drafts.title']} {list && <span className="drafts-count">{list.totalCount}</span>}
				</h2>
				<form method="dialog">
					<button className="button secondary" type="submit">
						{texts['write.drafts.close']}
					</button>
				</form>
			</header>
			{failed && (
				<p className="form-error" role="alert">
					{texts['write.drafts.failed']}
				</p>
			)}
			{list && list.drafts.length === 0 && <p className="drafts-empty">{texts['write.drafts.empty']}</p>}
			{list && list.drafts.length > 0 && (
				<ul className="drafts-list">
					{list.drafts.map((draft) => (
						<li key={draft.draftId} data-draft-id={draft.draftId}>
							<div className="drafts-item">
								<span className={draft.title.trim() ? 'drafts-title' : 'drafts-title untitled'}>
									{draft.title.trim() || texts['write.drafts.untitled']}
								</span>
								<time className="drafts-date">{formatFullDate(draft.updatedAt, language)}</time>
							</div>
							<button className="button secondary" type="button" onClick={() => onLoad(draft.draftId)}>
								{texts['write.drafts.load']}
							</button>
							<button className="button secondary" type="button" onClick={() => void remove(draft.draftId)}>
								{texts['write.drafts.delete']}
							</button>
						</li>
					))}
				</ul>
			)}
			{list && list.totalPages > 1 && (
				<nav className="drafts-pages" aria-label={texts['write.drafts.title']}>
					<button className="button secondary" type="button" disabled={page <= 1} onClick={() => void load(page - 1)}>
						{texts['pagination.prev']}
					</button>
					<span>
						{page} / {list.totalPages}
					</span>
					<button className="button secondary" type="button" disabled={page >= list.totalPages} onClick={() => void load(page + 1)}>
						{texts['pagination.next']}
					</button>
				</nav>
			)}
		</dialog>
	);
}
