/**
 * The write form's local safety net (src/islands/write/local-copy.ts) as a hook over the form's
 * state (./form-state.ts): the form is kept on this device a moment after each change and when the
 * page is left or hidden; on open, a kept copy that differs from what the page shows is offered
 * back (or, after a forced login, put back at once); offline, the work is kept and the request
 * waits in the state for the connection's return.
 */
import { useCallback, useEffect, useRef, useState, type Dispatch } from 'react';
import { clearLocalCopy, isBlank, readLocalCopy, sameWork, writeLocalCopy, type FormFields, type LocalCopy } from './local-copy';
import type { WriteFormAction, WriteFormState } from './form-state';

/** How long after the last change the local safety net saves the form. */
const LOCAL_SAVE_DELAY_MS = 1000;

interface Options {
	storageKey: string;
	/** Editing a post: a blank form is still a change to keep. */
	editing: boolean;
	hydrated: boolean;
	/** The fields the page opened with: a kept copy that equals them is not offered. */
	initialFields: FormFields;
	/** Puts work read back into the form. */
	applyWork: (work: FormFields, draftId: number | null) => void;
}

export function useLocalCopy(
	state: WriteFormState,
	dispatch: Dispatch<WriteFormAction>,
	{ storageKey, editing, hydrated, initialFields, applyWork }: Options,
) {
	const [offer, setOffer] = useState<LocalCopy | null>(null);
	/** Submitted or cancelled: nothing more is kept (a page being left may still say pagehide). */
	const finishedRef = useRef(false);
	/** A forced login is under way: the copy is put back by itself when the member returns. */
	const resumeRef = useRef(false);
	const { fields, draftId, touched, baseline } = state;

	/** Keeps the form in the browser now (the local safety net); `resume` marks a forced login. */
	const keepLocally = useCallback(
		(resumeAfterLogin = false) => {
			if (resumeAfterLogin) resumeRef.current = true;
			const resume = resumeRef.current;
			// An open restore offer holds the earlier work: it is not overwritten before the member chooses.
			if (finishedRef.current || !touched || offer) return;
			if (!resume && draftId === null && (sameWork(fields, baseline) || (!editing && isBlank(fields)))) clearLocalCopy(storageKey);
			else writeLocalCopy(storageKey, { fields, draftId, savedAt: Date.now(), ...(resume ? { resume } : {}) });
		},
		[storageKey, editing, fields, draftId, touched, baseline, offer],
	);

	// Once the member has paused for LOCAL_SAVE_DELAY_MS after a change, the form is kept.
	useEffect(() => {
		if (!touched) return;
		const timer = window.setTimeout(() => keepLocally(), LOCAL_SAVE_DELAY_MS);
		return () => window.clearTimeout(timer);
	}, [fields, touched, keepLocally]);

	// Saved as, loaded from or restored with a server draft, or an offer answered: kept at once.
	const answered = offer === null;
	useEffect(() => keepLocally(), [draftId, answered]);

	// Leaving or hiding the page keeps the form as it is now.
	useEffect(() => {
		if (!hydrated) return;
		const leave = () => keepLocally();
		const hidden = () => document.visibilityState === 'hidden' && keepLocally();
		window.addEventListener('pagehide', leave);
		document.addEventListener('visibilitychange', hidden);
		return () => {
			window.removeEventListener('pagehide', leave);
			document.removeEventListener('visibilitychange', hidden);
		};
	}, [hydrated, keepLocally]);

	// On open, once the editor is up (its handle exists from the render after hydration): a local
	// copy that differs from what the page shows is offered back (or, after a forced login, put
	// back at once).
	useEffect(() => {
		if (!hydrated) return;
		const copy = readLocalCopy(storageKey);
		if (copy && !sameWork(copy.fields, initialFields) && !(!editing && isBlank(copy.fields) && copy.draftId === null)) {
			if (copy.resume) {
				applyWork(copy.fields, copy.draftId);
				writeLocalCopy(storageKey, { ...copy, resume: false });
			} else {
				setOffer(copy);
			}
		} else if (copy) {
			clearLocalCopy(storageKey);
		}
	}, [hydrated, storageKey, initialFields, applyWork, editing]);

	/** Submitted or cancelled: the copy goes and nothing more is kept. */
	const finish = () => {
		finishedRef.current = true;
		clearLocalCopy(storageKey);
	};

	/** Offline: the work is kept on this device now and `action` is sent again once the browser is back online. */
	const keepUntilOnline = (action: 'submit' | 'draft') => {
		keepLocally();
		dispatch({ type: 'pending', pending: action });
	};

	const restore = () => {
		setOffer(null);
		if (offer) applyWork(offer.fields, offer.draftId);
	};

	const discard = () => {
		setOffer(null);
		clearLocalCopy(storageKey);
	};

	return { offer, keepLocally, keepUntilOnline, finish, restore, discard };
}
