/**
 * The report dialog (src/components/post/ReportDialog.astro): a member reports a post or a comment
 * with one of the predefined reasons and a detail (at most REPORT_DETAIL_MAX_LENGTH characters,
 * required for OTHER), checked here by the rules the API checks again. Success closes it with
 * 'It has been reported.'; a second report of the same target closes it with the already-reported
 * text; the API's refusal of the reason or the detail is said under that field; any other failure
 * leaves it open with what was typed, under the alert ('Failed to report.', too many requests), or
 * opens the forced-login alert or the ban dialog. The dialog is rendered for members only: a guest
 * gets the login-required modal instead.
 */
import { CommentAlreadyReported, PostAlreadyReported, ReportDetailRequired, ReportDetailTooLong, ReportReasonRequired } from '@/lib/result-codes';
import {
	REPORT_DETAIL_MAX_LENGTH,
	REPORT_REASONS,
	detailRequired,
	reportDetailLength,
	type ReportReason,
	type ReportTargetType,
} from '@/schemas/report-limits';
import { showActionAlert } from './action-alert';
import { handleActionFailure } from './member-action';
import { memberClient } from './page-client';
import { showToast } from '@/stores/toasts';

/** What is reported: a post or a comment, by id. */
export interface ReportTarget {
	type: ReportTargetType;
	id: number;
}

const prepared = new WeakSet<HTMLDialogElement>();
let current: ReportTarget | null = null;
let onCurrentReported: (() => void) | undefined;

/**
 * Opens the report dialog for `target`, empty; a guest's page (no dialog) asks them to log in first.
 * `onReported` is called once the target is reported (or found reported already): the comments
 * island marks the comment's menu with it.
 */
export function openReportDialog(target: ReportTarget, onReported?: () => void): void {
	const dialog = document.querySelector<HTMLDialogElement>('[data-report-dialog]');
	if (!dialog) {
		openLoginRequired();
		return;
	}
	if (!prepared.has(dialog)) prepare(dialog);
	current = target;
	onCurrentReported = onReported;
	const form = partsOf(dialog);
	form.heading.textContent = (target.type === 'POST' ? dialog.dataset['textHeadingPost'] : dialog.dataset['textHeadingComment']) ?? '';
	form.form.reset();
	showError(form.reasonError, null);
	showError(form.detailError, null);
	updateCount(form);
	setBusy(form, false);
	dialog.showModal();
}

/** The login-required modal of the layout (docs/reference/product-rules.md#global-ui); its confirm comes back to this page. */
function openLoginRequired(): void {
	const modal = document.querySelector<HTMLDialogElement>('[data-login-required-dialog]');
	if (!modal || modal.open) return;
	modal.returnValue = '';
	modal.showModal();
}

function partsOf(dialog: HTMLDialogElement) {
	const form = dialog.querySelector<HTMLFormElement>('[data-report-form]');
	const detail = dialog.querySelector<HTMLTextAreaElement>('[data-report-detail]');
	const count = dialog.querySelector<HTMLElement>('[data-report-count]');
	const heading = dialog.querySelector<HTMLElement>('[data-report-heading]');
	const reasonError = dialog.querySelector<HTMLElement>('[data-report-reason-error]');
	const detailError = dialog.querySelector<HTMLElement>('[data-report-detail-error]');
	const submit = dialog.querySelector<HTMLButtonElement>('[data-report-submit]');
	if (!form || !detail || !count || !heading || !reasonError || !detailError || !submit) throw new Error('The report dialog is incomplete.');
	return { dialog, form, detail, count, heading, reasonError, detailError, submit };
}

type Parts = ReturnType<typeof partsOf>;

function prepare(dialog: HTMLDialogElement): void {
	prepared.add(dialog);
	const parts = partsOf(dialog);
	parts.detail.addEventListener('input', () => {
		updateCount(parts);
		if (parts.detailError.textContent) checkDetail(parts, selectedReason(parts));
	});
	parts.form.addEventListener('change', (event) => {
		if ((event.target as Element).matches('input[name="reason"]')) {
			showError(parts.reasonError, null);
			if (parts.detailError.textContent) checkDetail(parts, selectedReason(parts));
		}
	});
	dialog.querySelector('[data-report-cancel]')?.addEventListener('click', () => dialog.close());
	parts.form.addEventListener('submit', (event) => {
		event.preventDefault();
		void submit(parts);
	});
}

/**
 * After a report (or the API's word that it was already made), the post's Report button reads
 * "Reported" and is aria-disabled (still focusable, so the closing dialog gives focus back to it), as
 * the page renders it on later visits; for a comment, its opener (the comments island) is told.
 */
function markReported(target: ReportTarget): void {
	if (target === current) onCurrentReported?.();
	if (target.type !== 'POST') return;
	const button = document.querySelector<HTMLButtonElement>(`button[data-post-action="report"][data-post-id="${target.id}"]`);
	if (!button) return;
	const label = button.querySelector<HTMLElement>('[data-report-label]');
	if (label) label.textContent = button.dataset['textReported'] ?? label.textContent;
	button.setAttribute('aria-disabled', 'true');
	button.removeAttribute('aria-haspopup');
	button.dataset['reported'] = '';
}

function selectedReason(parts: Parts): ReportReason | null {
	const value = new FormData(parts.form).get('reason');
	return REPORT_REASONS.find((reason) => reason === value) ?? null;
}

function updateCount(parts: Parts): void {
	const length = reportDetailLength(parts.detail.value);
	parts.count.textContent = `${length}/${REPORT_DETAIL_MAX_LENGTH}`;
	parts.count.classList.toggle('over', length > REPORT_DETAIL_MAX_LENGTH);
}

function showError(element: HTMLElement, message: string | null): void {
	element.textContent = message ?? '';
	element.hidden = message === null;
}

/** Marks the detail invalid when it is too long, or empty for OTHER; true when it is fine. */
function checkDetail(parts: Parts, reason: ReportReason | null): boolean {
	const { textDetailRequired = '', textDetailTooLong = '' } = parts.dialog.dataset;
	const detail = parts.detail.value;
	const problem =
		reportDetailLength(detail) > REPORT_DETAIL_MAX_LENGTH ? textDetailTooLong : reason && detailRequired(reason, detail) ? textDetailRequired : null;
	showError(parts.detailError, problem);
	parts.detail.setAttribute('aria-invalid', String(problem !== null));
	return problem === null;
}

function setBusy(parts: Parts, busy: boolean): void {
	parts.submit.disabled = busy;
	parts.submit.setAttribute('aria-busy', String(busy));
}

async function submit(parts: Parts): Promise<void> {
	const target = current;
	if (!target || parts.submit.disabled) return;
	const reason = selectedReason(parts);
	showError(parts.reasonError, reason ? null : (parts.dialog.dataset['textReasonRequired'] ?? ''));
	const detailFine = checkDetail(parts, reason);
	if (!reason) {
		parts.form.querySelector<HTMLInputElement>('input[name="reason"]')?.focus();
		return;
	}
	if (!detailFine) {
		parts.detail.focus();
		return;
	}
	// The dialog is the same for every member (its HTML is remembered); the action bar names this one.
	const userId = document.querySelector<HTMLElement>('[data-post-action-bar]')?.dataset['userId'] ?? '';
	const { channelBase = '', textDone = '', textFailed = '', textAlreadyPost = '', textAlreadyComment = '', textTooMany = '' } = parts.dialog.dataset;
	setBusy(parts, true);
	try {
		await memberClient(userId).member.post('/reports', {
			json: { targetType: target.type, targetId: target.id, reason, detail: parts.detail.value },
		});
		parts.dialog.close();
		markReported(target);
		showToast(textDone);
	} catch (error) {
		const outcome = handleActionFailure(error, channelBase);
		if (outcome.kind === 'handled') {
			parts.dialog.close();
		} else if (outcome.kind === 'too-many') {
			showActionAlert(textTooMany);
		} else if (outcome.code === ReportReasonRequired.code) {
			// The API's own check of a field (a page older than its rules): said under the field, as the dialog's check says it.
			showError(parts.reasonError, parts.dialog.dataset['textReasonRequired'] ?? '');
		} else if (outcome.code === ReportDetailRequired.code || outcome.code === ReportDetailTooLong.code) {
			showError(
				parts.detailError,
				(outcome.code === ReportDetailRequired.code ? parts.dialog.dataset['textDetailRequired'] : parts.dialog.dataset['textDetailTooLong']) ?? '',
			);
			parts.detail.setAttribute('aria-invalid', 'true');
			parts.detail.focus();
		} else if (outcome.code === PostAlreadyReported.code || outcome.code === CommentAlreadyReported.code) {
			parts.dialog.close();
			markReported(target);
			showActionAlert(outcome.code === PostAlreadyReported.code ? textAlreadyPost : textAlreadyComment);
		} else {
			showActionAlert(textFailed);
		}
	} finally {
		setBusy(parts, false);
	}
}
