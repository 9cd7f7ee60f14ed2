/**
 * The write and edit screens' form (docs/reference/product-rules.md#states, docs/reference/product-rules.md#validation, docs/reference/product-rules.md#errors-and-texts): board, category ('None' for boards that use
 * categories), title with its live count, the rich editor, the private switch and, for
 * administrators, the notice switch. Around it: board templates (a different template replaces
 * the content, after a confirmation when the member has written something), server drafts
 * (./use-drafts.ts), the local safety net (./use-local-copy.ts) and the submit with docs/reference/product-rules.md#errors-and-texts's
 * failures. The form's state and its changes are ./form-state.ts.
 */
import { lazy, Suspense, useCallback, useEffect, useId, useMemo, useReducer, useRef, type FormEvent } from 'react';
import { useHydrated } from '@/islands/common/use-hydrated';
import { $userId } from '@/stores/user-id';
import { showToast, showToastOnNextPage } from '@/stores/toasts';
import { resultCodeOf } from '@/lib/api-client';
import { DraftNotFound } from '@/lib/result-codes';
import { pageUrls } from '@/lib/urls';
import { TITLE_MAX_LENGTH, titleLength } from '@/schemas/post-limits';
import type { OpeningFields } from '@/schemas/post-write';
import type { ChannelRef } from '@/lib/urls';
import { publishedDocument } from '@/schemas/guidance';
import type { Language } from '@/schemas/channel';
import { RichEditor, documentIsEmpty, emptyDocument, type EditorTexts, type MediaLimit, type RichEditorHandle } from './editor';
import { draftsApi, failureMeaning, memberApi } from './api';
import { fitToBoards, hasWork, initialWriteForm, writeFormReducer, type FieldErrors, type WriteBoard } from './form-state';
import type { FormFields } from './local-copy';
import { useDrafts } from './use-drafts';
import { useLocalCopy } from './use-local-copy';
import type { WriteTexts } from './texts';
import { useAsk } from './use-ask';
import { BoardFields, TitleField, WriteActions, WriteSwitches } from './WriteFields';

/** The drafts dialog loads when it is first opened: the write page's JavaScript before the editor is usable stays within its budget. */
const DraftsDialog = lazy(() => import('./DraftsDialog'));

/** The offer of a copy kept on this device, loaded when there is one to offer, for the same budget. */
const RestoreBanner = lazy(() => import('./RestoreBanner'));

/** The confirmations and alerts (a template replacing written work, Cancel, a failure) load the first time one is needed, for the same budget. */
const alertDialog = () => import('@/islands/common/AlertDialog');
const AlertDialog = lazy(alertDialog);

/** src/lib/spam-failure.ts, loaded when the form is submitted: the write page has no room for it in its JavaScript budget. */
const spamDefence = () => import('@/lib/spam-failure');

/** The template's empty sections, looked for when the form is submitted (src/schemas/template-sections.ts). */
const templateSections = () => import('@/schemas/template-sections');

/** The forced-login and ban dialogs, needed only when the server answers so (the layout loads them the same way). */
const routeDialogs = () => import('@/islands/common/route-error-dialog');

/**
 * What a submit needs besides the form, fetched once the member changes something (after the
 * budget's measure, while the page is online): the alert's code, the spam defence's texts and the
 * template's sections. A submit that fails offline can still say so (docs/reference/messages.md), and a post
 * kept for the connection's return is not held up by a module that failed to load.
 */
const preloadFailureCode = () => {
	for (const load of [alertDialog, spamDefence, templateSections]) void load().catch(() => undefined);
};

interface Props {
	/** The post being edited with the version it was read at; null on the write screen. */
	edit: { postId: number; version: number } | null;
	boards: WriteBoard[];
	initial: OpeningFields;
	/** The draft the screen opened with: saving a draft overwrites it. */
	draftId?: number | undefined;
	admin: boolean;
	userId: number;
	channelBase: string;
	/** The channel whose member API the form calls. */
	channel: ChannelRef;
	language: Language;
	/** A new member's limit of images and videos in a post, with its note and refusal (docs/reference/uploads.md); null for anyone else. */
	mediaLimit: MediaLimit | null;
	/** localDraftStorageKey of src/lib/names.ts for this member and screen. */
	storageKey: string;
	/** Where Cancel goes when there is no page of the community to go back to. */
	cancelUrl: string;
	texts: WriteTexts & EditorTexts;
}

export default function WriteForm({
	edit,
	boards,
	initial,
	draftId: openedDraft,
	admin,
	userId,
	channelBase,
	channel,
	language,
	mediaLimit,
	storageKey,
	cancelUrl,
	texts,
}: Props) {
	const id = useId();
	const hydrated = useHydrated();
	const initialFields = useMemo<FormFields>(() => ({ ...initial, content: initial.content ?? emptyDocument() }), [initial]);
	const [state, dispatch] = useReducer(writeFormReducer, undefined, () => initialWriteForm(initialFields, openedDraft ?? null, edit !== null));
	const { fields, errors, busy, pending } = state;

	const editorRef = useRef<RichEditorHandle>(null);

	const api = useMemo(() => memberApi(channel, userId), [channel, userId]);
	const draftsRoutes = useMemo(() => draftsApi(api), [api]);
	// One id per write screen: a double click or a retried request creates one post.
	const requestId = useMemo(() => (typeof crypto === 'undefined' ? '' : crypto.randomUUID()), []);
	const board = boards.find((candidate) => candidate.boardId === fields.boardId);

	const { dialog, ask, tell, closed } = useAsk(texts);

	const applyWork = useCallback(
		(work: FormFields, workDraftId: number | null) => {
			const fitted = fitToBoards(work, boards);
			dispatch({ type: 'work', fields: fitted, draftId: workDraftId });
			editorRef.current?.setDocument(fitted.content);
		},
		[boards],
	);

	// The editor's uploads send this member's user-id header: the write screen seeds the session's
	// user id itself, as it loads no session sync (MainLayout's sessionSync).
	useEffect(() => $userId.set(String(userId)), [userId]);

	const local = useLocalCopy(state, dispatch, { storageKey, editing: edit !== null, hydrated, initialFields, applyWork });
	const { keepLocally } = local;

	const change = (next: Partial<FormFields>) => {
		preloadFailureCode();
		dispatch({ type: 'change', fields: next });
	};

	const currentWork = (): FormFields => ({ ...fields, content: editorRef.current?.getDocument() ?? fields.content });
	const unsaved = hasWork(state, edit !== null);

	const draftsState = useDrafts(state, dispatch, {
		drafts: draftsRoutes,
		currentWork,
		hasWork: unsaved,
		applyWork,
		ask,
		onFailure: (error, action) => handleFailure(error, action),
		texts,
	});
	const { saveDraft } = draftsState;

	// A request that failed offline goes again once the browser is back online (the same requestId: one post).
	useEffect(() => {
		if (!pending) return;
		const send = () => {
			dispatch({ type: 'pending', pending: null });
			void (pending === 'submit' ? submit : saveDraft)();
		};
		addEventListener('online', send, { once: true });
		return () => removeEventListener('online', send);
	});

	const returnPath = () => `${location.pathname}${location.search}`;

	const handleFailure = async (error: unknown, action: 'submit' | 'draft' | 'load') => {
		if (action !== 'load' && !navigator.onLine) {
			// Offline: the work is kept on this device now and sent (or saved as a draft) once the browser is back online (the same requestId: one post).
			local.keepUntilOnline(action);
			return void (await tell(texts['common.message.offline'], texts['common.message.offlineTitle']));
		}
		// A new member's limits and the human check (src/lib/spam-failure.ts, loaded on submit); '' when said at the check itself.
		const spam = (await spamDefence()).spamFailureText(error, texts, language);
		if (spam !== null) return void (spam && (await tell(spam)));
		const meaning = failureMeaning(error, channelBase, returnPath());
		switch (meaning.kind) {
			case 'forced-login':
				// The work is kept and put back when the member returns from login.
				keepLocally(true);
				if (!(await routeDialogs().catch(() => null))?.openForcedLogin(meaning.loginUrl)) location.replace(meaning.loginUrl);
				return;
			case 'ban':
				(await routeDialogs()).openBanDialog(meaning.endsAt);
				return;
			case 'field':
				dispatch({
					type: 'errors',
					errors:
						meaning.field === 'title'
							? { title: meaning.problem === 'required' ? texts['write.message.titleRequired'] : texts['write.message.titleTooLong'] }
							: { content: meaning.problem === 'required' ? texts['write.message.contentRequired'] : texts['write.message.tooManyImages'] },
				});
				return;
			case 'subject-disabled':
				await tell(texts['write.message.subjectDisabled']);
				return;
			case 'post-changed':
				if (await ask(texts['write.message.postChanged'], texts['write.button.reload'])) {
					// The reloaded page shows the latest version and offers this work back.
					keepLocally();
					location.reload();
				}
				return;
			case 'draft-limit':
				await tell(texts['write.message.draftLimit']);
				return;
			case 'too-many':
				await tell(texts['common.message.tooManyRequests']);
				return;
			case 'generic':
				if (action === 'draft') showToast(texts['write.message.draftFailed']);
				else if (action === 'load') await tell(texts['write.drafts.failed']);
				else
					await tell(
						texts[edit ? 'write.message.editFailed' : 'write.message.writeFailed'],
						texts[edit ? 'write.failed.editTitle' : 'write.failed.writeTitle'],
					);
		}
	};

	const check = (work: FormFields): FieldErrors => {
		const found: FieldErrors = {};
		if (work.boardId === null) found.board = texts['write.message.boardRequired'];
		if (work.title.trim() === '') found.title = texts['write.message.titleRequired'];
		else if (titleLength(work.title) > TITLE_MAX_LENGTH) found.title = texts['write.message.titleTooLong'];
		if (documentIsEmpty(work.content)) found.content = texts['write.message.contentRequired'];
		return found;
	};

	const submit = async (event?: FormEvent<HTMLFormElement>) => {
		event?.preventDefault();
		if (busy) return;
		const written = currentWork();
		// The template's guidance left empty is not published, nor any hint (the server does the same).
		const work = { ...written, content: publishedDocument(written.content) };
		const problems = check(work);
		dispatch({ type: 'errors', errors: problems });
		if (Object.keys(problems).length > 0 || work.boardId === null) {
			if (problems.title) document.getElementById(`${id}-title`)?.focus();
			else if (problems.content) editorRef.current?.focus();
			return;
		}
		// The template's sections left empty are named first: publish anyway, or go back to the first (docs/reference/template-guidance.md).
		const empty = board?.template ? (await templateSections().catch(() => null))?.emptySections(written.content, board.template) : undefined;
		if (
			empty?.length &&
			!(await ask(texts['write.emptySections.message'], texts[edit ? 'write.button.saveAnyway' : 'write.button.publishAnyway'], {
				title: texts['write.emptySections.title'],
				cancelLabel: texts['write.button.goBack'],
				items: empty.map((section) => section.heading),
			}))
		)
			return editorRef.current?.focusUnder(empty[0]!.headingIndex);
		dispatch({ type: 'busy', busy: 'submit' });
		const body = {
			boardId: work.boardId,
			subjectId: work.subjectId,
			title: work.title,
			content: work.content,
			isPrivate: work.isPrivate,
			isNotice: admin && work.isNotice,
		};
		const urls = pageUrls(channelBase);
		// A new member's Turnstile token, when the page shows the widget.
		let challengeToken: string | undefined;
		try {
			let postId: number;
			if (edit) {
				await api.put('/posts/:postId', { param: { postId: edit.postId }, json: { ...body, version: edit.version } });
				postId = edit.postId;
			} else {
				// Written from a saved draft: the post replaces it. A draft deleted meanwhile (another tab) is no reason not to post.
				challengeToken = (await spamDefence()).challengeToken();
				const create = (from: number | null) =>
					api.post('/posts', {
						json: from === null ? { ...body, requestId, challengeToken } : { ...body, requestId, challengeToken, draftId: from },
					});
				const answer = await create(state.draftId).catch((error: unknown) => {
					if (state.draftId === null || resultCodeOf(error) !== DraftNotFound.code) throw error;
					return create(null);
				});
				postId = answer.postId;
			}
			local.finish();
			// The post page says what happened (the toast of the next page: nothing in the URL, so the cached page is shared).
			showToastOnNextPage(texts[edit ? 'write.message.edited' : 'write.message.published']);
			location.assign(urls.post(postId));
		} catch (error) {
			dispatch({ type: 'busy', busy: null });
			// Sent before the human check gave its token: sent again the moment it does, never "do the check again" (as the sign-up).
			const spam = await spamDefence();
			const form = document.getElementById(`${id}-form`) as HTMLFormElement;
			if (!edit && !challengeToken && spam.isChallengeFailure(error) && spam.submitOnChallenge(form, texts['spam.challengeWaitPost'])) return;
			await handleFailure(error, 'submit');
		}
	};

	const chooseBoard = async (boardId: number) => {
		const current = fields;
		const next = boards.find((candidate) => candidate.boardId === boardId);
		if (!next) return;
		const previousTemplate = board?.template ?? null;
		let content = current.content;
		let replace = false;
		if (JSON.stringify(next.template) !== JSON.stringify(previousTemplate)) {
			const written = state.written && !documentIsEmpty(current.content);
			if (next.template) {
				// docs/reference/product-rules.md#states: a different template discards the current content only after confirmation.
				if (written && !(await ask(texts['write.confirm.template'], texts['write.button.useTemplate']))) return;
				content = next.template;
				replace = true;
			} else if (!written) {
				// The previous board's untouched template goes; the member's own text would stay.
				content = emptyDocument();
				replace = true;
			}
		}
		const subjectId = next.subjects.some((subject) => subject.subjectId === current.subjectId) ? current.subjectId : null;
		change({ boardId, subjectId, content });
		dispatch({ type: 'fixed', field: 'board' });
		if (replace) {
			dispatch({ type: 'template' });
			editorRef.current?.setDocument(content);
		}
	};

	const cancel = async () => {
		if (unsaved && !(await ask(texts['write.confirm.cancel'], texts['write.button.leave']))) return;
		local.finish();
		const referrer = document.referrer ? new URL(document.referrer) : null;
		const cameFromCommunity =
			referrer?.origin === location.origin &&
			referrer.pathname.startsWith(`${channelBase}/`) &&
			!/\/(?:login|oauth|signup|write)\b|\/edit$/.test(referrer.pathname);
		if (cameFromCommunity && history.length > 1) history.back();
		else location.assign(cancelUrl);
	};

	// Every key in the body, and in the editor's dialogs (their events pass through here): said once.
	const markWritten = () => {
		if (state.touched && state.written) return;
		preloadFailureCode();
		dispatch({ type: 'written' });
	};

	const submitLabel = edit ? texts['write.button.save'] : texts['write.button.submit'];

	return (
		<>
			{local.offer && (
				<Suspense fallback={null}>
					<RestoreBanner savedAt={local.offer.savedAt} language={language} texts={texts} onRestore={local.restore} onDiscard={local.discard} />
				</Suspense>
			)}
			{/* The fields are not inside this form: the editor's own dialogs (link, video) are forms, and
			    forms must not nest. The submit button names it. */}
			<form id={`${id}-form`} onSubmit={submit} noValidate hidden />
			<div className="write-form" data-write-form>
				{/* Nothing is typed or chosen before the form's code runs, so nothing typed is lost to it. */}
				<fieldset className="write-fields" disabled={!hydrated}>
					<BoardFields
						id={id}
						fields={fields}
						errors={errors}
						boards={boards}
						board={board}
						texts={texts}
						onChooseBoard={(boardId) => void chooseBoard(boardId)}
						onChange={change}
					/>
					<TitleField
						id={id}
						title={fields.title}
						error={errors.title}
						texts={texts}
						onChange={(title) => {
							change({ title });
							dispatch({ type: 'fixed', field: 'title' });
						}}
					/>
					<div
						className="field"
						onKeyDownCapture={markWritten}
						onPasteCapture={markWritten}
						onDropCapture={markWritten}
						onInputCapture={markWritten}
						onChangeCapture={markWritten}
					>
						<span id={`${id}-body`} className="field-label">
							{texts['write.field.body']}
						</span>
						<RichEditor
							initialDocument={initial.content}
							// Before the member changes anything, the editor's own form of the opening content is what "unchanged" means.
							onChange={(content) => dispatch({ type: 'edited', content })}
							channel={channel}
							mediaLimit={mediaLimit}
							texts={texts}
							labelledBy={`${id}-body`}
							onAuthFailure={(error) => void handleFailure(error, 'submit')}
							handleRef={editorRef}
						/>
						{errors.content && (
							<p className="field-error" role="alert">
								{errors.content}
							</p>
						)}
					</div>
					<WriteSwitches fields={fields} admin={admin} texts={texts} onChange={change} />
				</fieldset>
				<WriteActions
					formId={`${id}-form`}
					hydrated={hydrated}
					busy={busy}
					draftCount={draftsState.draftCount}
					submitLabel={submitLabel}
					texts={texts}
					onCancel={() => void cancel()}
					onOpenDrafts={draftsState.openDrafts}
					onSaveDraft={() => void saveDraft()}
				/>
			</div>
			{draftsState.draftsShown && (
				<Suspense fallback={null}>
					<DraftsDialog
						open={draftsState.draftsOpen}
						drafts={draftsRoutes}
						language={language}
						texts={texts}
						version={draftsState.draftsVersion}
						onClose={draftsState.closeDrafts}
						onLoad={(loadId) => void draftsState.loadDraft(loadId)}
						onDelete={draftsState.deleteDraft}
					/>
				</Suspense>
			)}
			{dialog && (
				<Suspense fallback={null}>
					<AlertDialog
						open={dialog.open}
						title={dialog.title}
						message={dialog.message}
						confirmLabel={dialog.confirmLabel}
						cancelLabel={dialog.cancelLabel}
						items={dialog.items}
						onClosed={closed}
					/>
				</Suspense>
			)}
		</>
	);
}
