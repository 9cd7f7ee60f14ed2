/**
 * The post page's comments before the island: nothing loads until the reader's first focus, press
 * or key inside the comments section; then the comments island takes the section over and replays
 * the press that woke it. A guest who reaches for a member's action (the box, Post, Reply) gets
 * the login-required modal (docs/reference/product-rules.md#global-ui) instead, before and after the island, decided from the page
 * itself: the server renders a member's page with their user id, the shared guest page without. A
 * member who comes back to a comment kept from an ended session gets the island at once.
 */
import { BLOCKS_CHANGED_EVENT, hasKeptComment, LIVE_SHOW_EVENT, loginRequiredDialog, type Wake } from '@/islands/comments/wake';

const section = document.querySelector<HTMLElement>('[data-comments]');
const MEMBER_ACTIONS = new Set(['write', 'post', 'reply', 'like']);
const WAKE_EVENTS = ['focusin', 'click', 'keydown', 'submit'] as const;

const actionOf = (event: Event) => (event.target as Element | null)?.closest<HTMLElement>('[data-action]') ?? null;

if (section) {
	const member = section.dataset['userId'] !== undefined;

	// Presses made while the island loads are held too, and the last one is replayed.
	let loading = false;
	let replay: Wake | null = null;
	// The island renders the section anew, so it must not mount between a press's pointerdown (which
	// focuses and wakes) and its click: the click would lose the element it began on. A press under
	// way holds the mount until after it ends (a later task than its click).
	let pressing = false;
	let pendingMount: (() => void) | null = null;
	const release = () => {
		pressing = false;
		if (pendingMount) setTimeout(pendingMount, 0);
		pendingMount = null;
	};
	section.addEventListener('pointerdown', () => (pressing = true), true);
	for (const type of ['pointerup', 'pointercancel'] as const) document.addEventListener(type, release, true);
	// Reply before the island: its box opens at once and takes the keys typed while the island loads;
	// the island then renders its own box over it with that text, the focus and the caret (mount.ts).
	// It is the island's box without its controls, under the thread, holding what the island's would:
	// the text already typed in that thread's box, or "@nickname " for a reply to a reply.
	const openEarlyReply = (button: HTMLElement) => {
		const li = button.closest<HTMLElement>('li[data-comment-id]');
		const threadId = li?.dataset['parentId'] ?? li?.dataset['commentId'];
		const thread = document.getElementById(`comment-${threadId}`);
		if (!li || !thread) return;
		const id = `comment-box-reply-${threadId}`;
		let box = document.getElementById(id) as HTMLTextAreaElement | null;
		if (!box) {
			const author = li.querySelector<HTMLElement>(':scope > .comment-body > .comment-head')?.dataset['authorName'];
			const texts = JSON.parse(section.dataset['texts'] ?? '{}') as Record<string, string>;
			section.querySelector('[data-comment-form^="reply-"]')?.remove();
			const form = thread.appendChild(document.createElement('form'));
			form.className = 'comment-form';
			form.dataset['commentForm'] = `reply-${threadId}`;
			box = form.appendChild(document.createElement('textarea'));
			box.id = id;
			box.className = 'comment-box';
			box.value = li.dataset['parentId'] && author ? `@${author} ` : '';
			box.ariaLabel = (texts['comment.reply.label'] ?? '').replace('{{nickname}}', author ?? texts['common.withdrawnMember'] ?? '');
		}
		box.focus();
		box.setSelectionRange(box.value.length, box.value.length);
	};
	// A comment's menu pressed while the island loads opens with it, unless the reader has closed it meanwhile
	// as an open menu closes (CommentMenu.tsx): a press outside it, Escape, Tab, or its button pressed again.
	let pressed: HTMLElement | null = null;
	const closeMenu = (event: Event) => {
		if (replay?.action === 'menu' && (event instanceof KeyboardEvent ? /^(Escape|Tab)$/.test(event.key) : actionOf(event) !== pressed)) replay = null;
	};
	for (const type of ['pointerdown', 'keydown'] as const) document.addEventListener(type, closeMenu, true);
	const wake = (event: Event) => {
		const target = actionOf(event);
		const action = target?.dataset['action'];
		if ((event.type === 'click' && action && action !== 'write') || event.type === 'submit') {
			event.preventDefault();
			const again = action === 'menu' && replay?.action === 'menu' && target === pressed;
			replay = again ? null : { action: event.type === 'submit' ? 'post' : (action ?? ''), commentId: Number(target?.dataset['commentId']) || null };
			pressed = target;
			if (action === 'reply' && target) openEarlyReply(target);
		}
		if (loading) return;
		loading = true;
		void import('@/islands/comments/mount').then(({ mountComments }) => {
			const mount = () => {
				for (const type of WAKE_EVENTS) section.removeEventListener(type, wake);
				for (const type of ['pointerdown', 'keydown'] as const) document.removeEventListener(type, closeMenu, true);
				mountComments(section, replay);
			};
			if (pressing) pendingMount = mount;
			else mount();
		});
	};
	for (const type of WAKE_EVENTS) section.addEventListener(type, wake);
	// The live banner's Show (live-thread.ts): the island wakes and loads the new comments (once awake, it hears the event itself).
	section.addEventListener(LIVE_SHOW_EVENT, (event) => {
		if (section.dataset['mounted'] !== undefined) return;
		replay = { action: 'live', commentId: null };
		wake(event);
	});
	// A block or unblock from the post's bar: the island wakes to collapse or open the member's comments (it follows the store of blocks).
	section.addEventListener(BLOCKS_CHANGED_EVENT, (event) => {
		if (section.dataset['mounted'] === undefined) wake(event);
	});
	// From here on a press is never lost (a press before it, while the page still loads, does nothing).
	section.dataset['commentsLoader'] = 'armed';

	if (!member) {
		const dialog = loginRequiredDialog();
		// The box asks once per visit: focus coming back from the modal does not open it again.
		let armed = true;
		const ask = () => {
			if (dialog && !dialog.open) {
				dialog.returnValue = '';
				dialog.showModal();
			}
		};
		const gate = (event: Event) => {
			const action = actionOf(event)?.dataset['action'];
			if (!action || !MEMBER_ACTIONS.has(action)) return;
			// Captured before the island's handlers, which never see a guest's member action.
			event.stopPropagation();
			if (event.type === 'click' || event.type === 'submit') {
				event.preventDefault();
				ask();
			} else if (event.type === 'focusin' && action === 'write' && armed) {
				armed = false;
				ask();
			} else if (event.type === 'focusout' && !dialog?.open) {
				armed = true;
			}
		};
		for (const type of ['focusin', 'focusout', 'click', 'submit'] as const) section.addEventListener(type, gate, true);
	} else if (hasKeptComment(section)) {
		wake(new Event('load'));
	}
}
