/**
 * The write form's local safety net (src/islands/write/local-copy.ts) as a hook: the form is kept on
 * this device a moment after each change and when the page is left or hidden; on open, a kept copy
 * that differs from what the page shows is offered back (or, after a forced login, put back at
 * once); offline, the work is kept and sent once the browser is back online.
 */
import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import { clearLocalCopy, isBlank, readLocalCopy, sameWork, writeLocalCopy, type FormFields, type LocalCopy } from './local-copy';

/** How long after the last change the local safety net saves the form. */
const LOCAL_SAVE_DELAY_MS = 1000;

interface Options {
	storageKey: string;
	/** Editing a post: a blank form is still a change to keep. */
	editing: boolean;
	hydrated: boolean;
	initialFields: FormFields;
	fieldsRef: RefObject<FormFields>;
	draftIdRef: RefObject<number | null>;
	/** The member has changed something (typed, pasted, chosen); until then nothing is kept locally. */
	touchedRef: RefObject<boolean>;
	/** Puts work read back into the form. */
	applyWork: (work: FormFields, draftId: number | null) => void;
}

export function useLocalCopy({ storageKey, editing, hydrated, initialFields, fieldsRef, draftIdRef, touchedRef, applyWork }: Options) {
	const [offer, setOffer] = useState<LocalCopy | null>(null);
	const offerRef = useRef(offer);
	offerRef.current = offer;
	/** The fields as the page opened, the content as the editor reports it (it may normalise it). */
	const baselineRef = useRef(initialFields);
	/** Submitted or cancelled: nothing more is kept. */
	const finishedRef = useRef(false);
	/** A forced login is under way: the copy is put back by itself when the member returns. */
	const resumeRef = useRef(false);
	const timerRef = useRef<number | undefined>(undefined);

	/** Keeps the form in the browser now (the local safety net); `resume` marks a forced login. */
	const keepLocally = useCallback(
		(resumeAfterLogin = false) => {
			window.clearTimeout(timerRef.current);
			if (resumeAfterLogin) resumeRef.current = true;
			const resume = resumeRef.current;
			// An open restore offer holds the earlier work: it is not overwritten before the member chooses.
			if (finishedRef.current || !touchedRef.current || offerRef.current) return;
			const current = fieldsRef.current;
			if (!resume && draftIdRef.current === null && (sameWork(current, baselineRef.current) || (!editing && isBlank(current))))
				clearLocalCopy(storageKey);
			else writeLocalCopy(storageKey, { fields: current, draftId: draftIdRef.current, savedAt: Date.now(), ...(resume ? { resume } : {}) });
		},
		[storageKey, editing, fieldsRef, draftIdRef, touchedRef],
	);

	/** Keeps the form once the member has paused for LOCAL_SAVE_DELAY_MS. */
	const keepSoon = useCallback(() => {
		window.clearTimeout(timerRef.current);
		timerRef.current = window.setTimeout(() => keepLocally(), LOCAL_SAVE_DELAY_MS);
	}, [keepLocally]);

	// On open, once the editor is up (its handle exists from the render after hydration): a local
	// copy that differs from what the page shows is offered back (or, after a forced login, put
	// back at once); leaving the page keeps the form.
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
		const leave = () => keepLocally();
		const hidden = () => document.visibilityState === 'hidden' && keepLocally();
		window.addEventListener('pagehide', leave);
		document.addEventListener('visibilitychange', hidden);
		return () => {
			window.removeEventListener('pagehide', leave);
			document.removeEventListener('visibilitychange', hidden);
		};
	}, [hydrated, storageKey, initialFields, keepLocally, applyWork, editing]);

	/** Submitted or cancelled: the copy goes and nothing more is kept. */
	const finish = () => {
		finishedRef.current = true;
		window.clearTimeout(timerRef.current);
		clearLocalCopy(storageKey);
	};

	/** Offline: the work is kept on this device now and `send` runs once the browser is back online. */
	const keepUntilOnline = (send: () => void) => {
		keepLocally();
		addEventListener('online', send, { once: true });
	};

	const restore = () => {
		const copy = offerRef.current;
		offerRef.current = null;
		setOffer(null);
		if (copy) applyWork(copy.fields, copy.draftId);
		keepLocally();
	};

	const discard = () => {
		offerRef.current = null;
		setOffer(null);
		clearLocalCopy(storageKey);
		keepLocally();
	};

	return { offer, baselineRef, keepLocally, keepSoon, keepUntilOnline, finish, restore, discard };
}
