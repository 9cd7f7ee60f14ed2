/**
 * The write form's server drafts as a hook over the form's state (./form-state.ts): the count on
 * the Drafts button, the drafts dialog (opened, and its code loaded, on first use), saving the form
 * as a draft (overwriting the one it came from), loading a draft into the form and deleting one.
 * What the local safety net keeps after each follows from the state (./use-local-copy.ts).
 */
import { useEffect, useState, type Dispatch } from 'react';
import { showToast } from '@/stores/toasts';
import { resultCodeOf } from '@/lib/api-client';
import { DraftNotFound } from '@/lib/result-codes';
import { TITLE_MAX_LENGTH, titleLength } from '@/schemas/post-limits';
import type { DraftBody, draftsApi } from './api';
import type { SavedDraft } from '@/lib/api-types';
import type { WriteFormAction, WriteFormState } from './form-state';
import type { FormFields } from './local-copy';
import type { WriteTexts } from './texts';

interface Options {
	drafts: ReturnType<typeof draftsApi>;
	/** The form's work with the editor's current content. */
	currentWork: () => FormFields;
	/** Whether the form holds work that loading a draft would replace. */
	hasWork: boolean;
	applyWork: (work: FormFields, draftId: number | null) => void;
	ask: (message: string, confirmLabel?: string) => Promise<boolean>;
	onFailure: (error: unknown, action: 'draft' | 'load') => Promise<void>;
	texts: WriteTexts;
}

export function useDrafts(
	state: WriteFormState,
	dispatch: Dispatch<WriteFormAction>,
	{ drafts, currentWork, hasWork, applyWork, ask, onFailure, texts }: Options,
) {
	const [draftCount, setDraftCount] = useState<number | null>(null);
	const [draftsOpen, setDraftsOpen] = useState(false);
	// Whether the drafts dialog was ever opened (it is mounted, and its code loaded, from then on).
	const [draftsShown, setDraftsShown] = useState(false);
	const openDrafts = () => {
		setDraftsShown(true);
		setDraftsOpen(true);
	};
	const closeDrafts = () => setDraftsOpen(false);
	const [draftsVersion, setDraftsVersion] = useState(0);

	// Once the page is up, the draft count is asked for.
	useEffect(() => {
		drafts.list(1).then(
			(page) => setDraftCount(page.totalCount),
			() => setDraftCount(null),
		);
	}, [drafts]);

	const saveDraft = async () => {
		if (state.busy) return;
		const work = currentWork();
		if (titleLength(work.title) > TITLE_MAX_LENGTH) {
			dispatch({ type: 'errors', errors: { title: texts['write.message.titleTooLong'] } });
			return;
		}
		dispatch({ type: 'busy', busy: 'draft' });
		const body: DraftBody = { boardId: work.boardId, subjectId: work.subjectId, title: work.title, content: work.content };
		try {
			let saved: SavedDraft;
			const existing = state.draftId;
			try {
				saved = existing === null ? await drafts.create(body) : await drafts.update(existing, body);
			} catch (error) {
				// Deleted meanwhile (another tab): saved as a new draft instead.
				if (existing === null || resultCodeOf(error) !== DraftNotFound.code) throw error;
				saved = await drafts.create(body);
			}
			if (saved.draftId !== existing) setDraftCount((count) => (count ?? 0) + 1);
			dispatch({ type: 'saved', draftId: saved.draftId });
			setDraftsVersion((version) => version + 1);
			showToast(texts['write.message.draftSaved']);
		} catch (error) {
			await onFailure(error, 'draft');
		} finally {
			dispatch({ type: 'busy', busy: null });
		}
	};

	const loadDraft = async (loadId: number) => {
		if (hasWork && !(await ask(texts['write.confirm.loadDraft'], texts['write.drafts.load']))) return;
		try {
			const draft = await drafts.get(loadId);
			const current = state.fields;
			applyWork(
				{ ...current, boardId: draft.boardId ?? current.boardId, subjectId: draft.subjectId, title: draft.title, content: draft.content },
				draft.draftId,
			);
			setDraftsOpen(false);
		} catch (error) {
			await onFailure(error, 'load');
		}
	};

	const deleteDraft = async (deleteId: number): Promise<boolean> => {
		if (!(await ask(texts['write.drafts.confirmDelete'], texts['write.drafts.delete']))) return false;
		try {
			await drafts.remove(deleteId);
		} catch (error) {
			if (resultCodeOf(error) !== DraftNotFound.code) {
				await onFailure(error, 'load');
				return false;
			}
		}
		setDraftCount((count) => Math.max(0, (count ?? 1) - 1));
		if (state.draftId === deleteId) dispatch({ type: 'draft', draftId: null });
		return true;
	};

	return { draftCount, draftsOpen, draftsShown, draftsVersion, openDrafts, closeDrafts, saveDraft, loadDraft, deleteDraft };
}
