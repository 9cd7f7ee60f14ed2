/**
 * Blocking and unblocking a member (docs/reference/blocking.md) from the post's action bar, a
 * comment's menu, the profile and Settings: `openBlockDialog` asks with the confirm of
 * src/components/common/BlockDialog.astro and blocks on Block; `unblockMember` unblocks at once. Each
 * success shows its toast, goes into the page's shared store of blocks (src/stores/blocks.ts), which
 * the comments island (woken for it if still asleep) and every Block / Unblock button of the page
 * follow, and tells the caller; a refusal says why in the action alert (the limit of 500, too many
 * requests), or opens the forced-login alert or the ban dialog. Loaded on first use, never by a guest's page.
 */
import { BlockLimitReached } from '@/lib/result-codes';
import { showToast } from '@/stores/toasts';
import { showActionAlert } from './action-alert';
import { handleActionFailure } from './member-action';
import { memberClient } from './page-client';
import { $blockChanges, setBlocked } from '@/stores/blocks';
import { BLOCKS_CHANGED_EVENT } from '@/islands/comments/wake';

/** The member blocked or unblocked. */
export interface BlockTarget {
	userId: number;
	nickname: string;
}

const named = (text: string | undefined, nickname: string) => (text ?? '').replaceAll('{{nickname}}', nickname);

function dialogOf(): HTMLDialogElement | null {
	return document.querySelector<HTMLDialogElement>('[data-block-dialog]');
}

/** Sends the block (`block` true) or the unblock; true when it was done. */
async function send(target: BlockTarget, block: boolean): Promise<boolean> {
	const { channelBase = '', textBlocked, textUnblocked, textLimit = '', textFailed = '', textTooMany = '' } = dialogOf()?.dataset ?? {};
	const param = { userId: target.userId };
	try {
		const members = memberClient().member;
		await (block ? members.put('/me/blocks/:userId', { param }) : members.delete('/me/blocks/:userId', { param }));
		showToast(named(block ? textBlocked : textUnblocked, target.nickname));
		setBlocked(target.userId, block);
		// The comments section collapses or opens the member's comments: its island, woken by the loader if it sleeps, follows the store.
		document.querySelector('[data-comments]')?.dispatchEvent(new CustomEvent(BLOCKS_CHANGED_EVENT));
		return true;
	} catch (error) {
		const outcome = handleActionFailure(error, channelBase);
		if (outcome.kind === 'too-many') showActionAlert(textTooMany);
		else if (outcome.kind === 'other') showActionAlert(outcome.code === BlockLimitReached.code ? textLimit : textFailed);
		return false;
	}
}

/** Asks whether to block `target`; on Block, blocks them and calls `onBlocked`. Focus returns to the opener when the dialog closes. */
export function openBlockDialog(target: BlockTarget, onBlocked: () => void): void {
	const dialog = dialogOf();
	if (!dialog || dialog.open) return;
	const heading = dialog.querySelector<HTMLElement>('[data-block-heading]');
	const confirm = dialog.querySelector<HTMLButtonElement>('[data-block-confirm]');
	const cancel = dialog.querySelector<HTMLButtonElement>('[data-block-cancel]');
	if (!heading || !confirm || !cancel) return;
	heading.textContent = named(dialog.dataset['textTitle'], target.nickname);
	const controller = new AbortController();
	dialog.addEventListener('close', () => controller.abort(), { once: true });
	cancel.addEventListener('click', () => dialog.close(), { signal: controller.signal });
	confirm.addEventListener(
		'click',
		async () => {
			if (confirm.disabled) return;
			confirm.disabled = true;
			const done = await send(target, true);
			confirm.disabled = false;
			dialog.close();
			if (done) onBlocked();
		},
		{ signal: controller.signal },
	);
	dialog.showModal();
}

/** Unblocks `target` (no confirm: nothing is lost) and calls `onUnblocked` once done. */
export async function unblockMember(target: BlockTarget, onUnblocked: () => void): Promise<void> {
	if (await send(target, false)) onUnblocked();
}

/** The label of a Block or Unblock control for `nickname`, from the dialog's texts. */
export function blockLabel(nickname: string, blocked: boolean): string {
	const data = dialogOf()?.dataset ?? {};
	return named(blocked ? data['textMenuUnblock'] : data['textMenu'], nickname);
}

/** A Block / Unblock button (`[data-block-label]` inside) shows `blocked`: its label, its state and, on the profile, the note under the name. */
function showBlockButton(button: HTMLButtonElement, blocked: boolean): void {
	button.toggleAttribute('data-blocked', blocked);
	if (blocked) button.removeAttribute('aria-haspopup');
	else button.setAttribute('aria-haspopup', 'dialog');
	const label = button.querySelector('[data-block-label]');
	if (label) label.textContent = blockLabel(button.dataset['blockNickname'] ?? '', blocked);
	const note = document.querySelector<HTMLElement>('[data-blocked-by-reader]');
	if (note) note.hidden = !blocked;
}

// Every Block / Unblock button of the page follows the store: a block from a comment's menu turns the post bar's into Unblock.
$blockChanges.listen((changes) => {
	for (const label of document.querySelectorAll('button[data-block-user-id] [data-block-label]')) {
		const button = label.closest<HTMLButtonElement>('button[data-block-user-id]')!;
		const blocked = changes[button.dataset['blockUserId'] ?? ''];
		if (blocked !== undefined) showBlockButton(button, blocked);
	}
});

/**
 * A Block / Unblock button of the page (the post's action bar, the profile): `data-block-user-id`,
 * `data-block-nickname` and `data-blocked` when blocked. A press asks (or unblocks); once done, the
 * store says so and the button, the page's `[data-blocked-by-reader]` note and the comments follow.
 */
export function toggleBlockButton(button: HTMLButtonElement): void {
	const target = { userId: Number(button.dataset['blockUserId']), nickname: button.dataset['blockNickname'] ?? '' };
	const nothing = () => undefined;
	if (button.dataset['blocked'] !== undefined) void unblockMember(target, nothing);
	else openBlockDialog(target, nothing);
}
