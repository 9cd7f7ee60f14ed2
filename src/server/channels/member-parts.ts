/**
 * The markup a member's page has and a guest's has not, in one place for both ways a member's page
 * is made: the full render (Header, Sidebar, WatchButton, PostActions and CommentList put it in with
 * `set:html`) and the guest's page rewritten on its way out (functions/shell/member-pages.ts), so the
 * two cannot drift.
 * Plain strings, no scoped-style attributes: the components style these parts with `:global`.
 * Everything a reader supplies (a nickname) is escaped as Astro escapes text and attributes.
 */
import type { Translate } from '@/i18n';
import { avatarImage } from '@/lib/avatars';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', "'": '&#39;', '"': '&quot;' };

/** `text` safe in HTML text and in a quoted attribute value. */
function escapeHtml(text: string): string {
	return text.replace(/[&<>'"]/g, (character) => ESCAPES[character] ?? character);
}

const BELL_ICON =
	'<svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true"><path d="M6 16V11a6 6 0 0 1 12 0v5l2 2H4l2-2ZM10 20a2 2 0 0 0 4 0" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"></path></svg>';

/** The header's bell (src/page-scripts/notification-bell.ts fills its count): before the account icon. */
export function bellHtml(t: Translate, notificationsHref: string): string {
	const label = escapeHtml(t('notifications.bell'));
	return `<a class="bell" href="${escapeHtml(notificationsHref)}" aria-label="${label}" data-bell data-label="${label}" data-label-unread="${escapeHtml(t('notifications.bellUnread'))}">${BELL_ICON}<span class="bell-count" data-bell-count hidden></span></a>`;
}

/**
 * Where the member's header (remembered once for every member: src/components/layout/Remembered.astro)
 * has the account link's picture; MainLayout puts the member's own in its place (accountAvatarHtml).
 */
export const ACCOUNT_AVATAR_SLOT = '<!--account-avatar-->';

/** The header account link's picture for a member: their avatar (docs/reference/avatars.md) in place of the guest's icon. */
export function accountAvatarHtml(channelBase: string, memberId: number): string {
	const image = avatarImage(channelBase, memberId, 28);
	return `<img class="avatar account-avatar" src="${escapeHtml(image.src)}" alt="" width="${image.width}" height="${image.height}" decoding="async">`;
}

/** The sidebar's card of the member reading: their nickname (to My Page) and Write. */
export function memberCardHtml(t: Translate, card: { nickname: string; mypageHref: string; writeHref: string }): string {
	return `<section class="card welcome" data-member-card><p class="member-label">${escapeHtml(t('layout.member'))}</p><a class="member-name" href="${escapeHtml(card.mypageHref)}" data-member-nickname>${escapeHtml(card.nickname)}</a><a class="button welcome-login" href="${escapeHtml(card.writeHref)}">${escapeHtml(t('common.button.write'))}</a></section>`;
}

/** Name-value pairs as a tag's attributes, each value escaped: ` name="value"` each. */
function attributesHtml(pairs: [string, string][]): string {
	return pairs.map(([name, value]) => ` ${name}="${escapeHtml(value)}"`).join('');
}

/** What a Watch toggle says and sends (src/page-scripts/watch-toggle.ts). */
export interface WatchButtonParts {
	target: 'post' | 'board';
	/** The post's or board's id. */
	targetId: number;
	userId: number;
	channelBase: string;
	watching: boolean;
	/** The button's classes, and the marker attribute its page finds it by (e.g. `data-board-watch`). */
	className: string;
	marker: string;
}

const WATCH_ICON =
	'<svg class="watch-icon" viewBox="0 0 24 24" width="18" height="18" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true"><path d="M6 16V11a6 6 0 0 1 12 0v5l2 2H4l2-2ZM10 20a2 2 0 0 0 4 0"></path></svg>';

/**
 * A member's Watch toggle of a post or a board: the state in words ("Watch" / "Watching") and
 * `aria-pressed`, as the server knows it when the page is made.
 */
export function watchButtonHtml(t: Translate, watch: WatchButtonParts): string {
	const post = watch.target === 'post';
	const off = post ? t('watch.post') : t('watch.board');
	const attributes: [string, string][] = [
		['aria-pressed', watch.watching ? 'true' : 'false'],
		['title', post ? t('watch.postLabel') : t('watch.boardLabel')],
		['data-watch-target', watch.target],
		['data-target-id', String(watch.targetId)],
		['data-user-id', String(watch.userId)],
		['data-channel-base', watch.channelBase],
		['data-text-on', t('watch.on')],
		['data-text-off', off],
		['data-toast-on', post ? t('watch.toast.post.on') : t('watch.toast.board.on')],
		['data-toast-off', post ? t('watch.toast.post.off') : t('watch.toast.board.off')],
		['data-text-failed', t('common.message.error')],
		['data-text-too-many', t('common.message.tooManyRequests')],
		['data-text-limit', t('watch.limit')],
		['class', watch.className],
	];
	const attributeText = attributesHtml(attributes);
	return `<button type="button"${attributeText} ${watch.marker}>${WATCH_ICON}<span data-watch-label>${escapeHtml(watch.watching ? t('watch.on') : off)}</span></button>`;
}

/** The board page's and the post page's Watch toggles: their classes and the marker their scripts find them by. */
export const POST_WATCH_CLASS = 'post-action watch';
export const POST_WATCH_MARKER = 'data-post-action="watch"';

/**
 * A member's Like of a post (src/page-scripts/post-like.ts sends it), pressed when they like it: the
 * attributes that make the guest's Like (a link to login, with the same icon, words and count) the
 * member's button. PostActions renders a member's `<button>` with them; the rewrite turns the guest's
 * link into that button, keeping its content (the count as the guest's page shows it).
 */
export function memberLikeAttributes(t: Translate, like: { liked: boolean; userId: number; channelBase: string }): [string, string][] {
	return [
		['type', 'button'],
		['aria-pressed', like.liked ? 'true' : 'false'],
		['data-post-action', 'like'],
		['data-user-id', String(like.userId)],
		['data-channel-base', like.channelBase],
		['data-text-failed', t('common.message.error')],
		['data-text-too-many', t('common.message.tooManyRequests')],
	];
}

/**
 * A member's Save toggle of a post (src/page-scripts/save-toggle.ts sends it): "Save" / "Saved" and
 * `aria-pressed`. PostActions renders it for a member, and the rewrite puts it after their Watch.
 */
export function saveButtonHtml(t: Translate, save: { postId: number; userId: number; channelBase: string; saved: boolean }): string {
	const attributes: [string, string][] = [
		['type', 'button'],
		['aria-pressed', save.saved ? 'true' : 'false'],
		['title', t('saved.label')],
		['data-post-action', 'save'],
		['data-post-id', String(save.postId)],
		['data-user-id', String(save.userId)],
		['data-channel-base', save.channelBase],
		['data-text-on', t('saved.on')],
		['data-text-off', t('saved.save')],
		['data-toast-on', t('saved.toast.on')],
		['data-toast-off', t('saved.toast.off')],
		['data-text-failed', t('common.message.error')],
		['data-text-too-many', t('common.message.tooManyRequests')],
		['data-text-limit', t('saved.limit')],
	];
	const attributeText = attributesHtml(attributes);
	return `<button class="post-action save"${attributeText}><svg class="save-icon" viewBox="0 0 24 24" width="18" height="18" aria-hidden="true"><path d="M6 3.5h12v17l-6-4.5-6 4.5z"></path></svg><span data-save-label>${escapeHtml(save.saved ? t('saved.on') : t('saved.save'))}</span></button>`;
}

/**
 * A member's Block of a post's author on the post's action bar (src/islands/common/block-dialog.ts
 * opens the confirm), or Unblock once they blocked them (docs/reference/blocking.md).
 */
export function blockButtonHtml(t: Translate, block: { userId: number; nickname: string; blocked: boolean }): string {
	const state = block.blocked ? ' data-blocked=""' : ' aria-haspopup="dialog"';
	const label = t(block.blocked ? 'block.menuUnblock' : 'block.menu', { nickname: block.nickname });
	return `<button class="post-action block" type="button"${state} data-post-action="block" data-block-user-id="${block.userId}" data-block-nickname="${escapeHtml(block.nickname)}"><span data-block-label>${escapeHtml(label)}</span></button>`;
}

/**
 * The confirm of blocking a member, closed until src/islands/common/block-dialog.ts fills in the
 * member and opens it (from the post's action bar, a comment's menu or the profile): what a block
 * does, and that the member is not told. On a member's post and profile pages.
 */
export function blockDialogHtml(t: Translate, channelBase: string): string {
	const data: [string, string][] = [
		['data-channel-base', channelBase],
		['data-text-title', t('block.confirm.title')],
		['data-text-menu', t('block.menu')],
		['data-text-menu-unblock', t('block.menuUnblock')],
		['data-text-blocked', t('block.toast.blocked')],
		['data-text-unblocked', t('block.toast.unblocked')],
		['data-text-limit', t('block.limit')],
		['data-text-failed', t('common.message.error')],
		['data-text-too-many', t('common.message.tooManyRequests')],
	];
	const attributes = attributesHtml(data);
	return `<dialog class="dialog-panel alert-dialog block-dialog" aria-labelledby="block-heading" aria-describedby="block-message" data-block-dialog${attributes}><h2 id="block-heading" data-block-heading></h2><p id="block-message">${escapeHtml(t('block.confirm.message'))}</p><div class="dialog-actions"><button class="button secondary" type="button" data-block-cancel autofocus>${escapeHtml(t('common.button.cancel'))}</button><button class="button danger" type="button" data-block-confirm>${escapeHtml(t('block.confirm.button'))}</button></div></dialog>`;
}

/** What a member's comments section carries for blocking (its `data-blocking`): the members they blocked and the texts. */
export function commentBlocking(t: Translate, authors: number[]) {
	return { authors, collapsed: t('block.collapsedComment'), menu: t('block.menu'), menuUnblock: t('block.menuUnblock') };
}

/**
 * The dialog of a post's and its comments' earlier versions (docs/reference/edit-history.md), closed
 * until src/page-scripts/revisions-dialog.ts fills and opens it from an "edited" mark: on a post page
 * that shows a mark, and on every member's (a comment they edit after the grace period is marked at once).
 */
export function revisionsDialogHtml(t: Translate, channel: { domain: string; slug: string; language: string }, postId: number): string {
	const data: [string, string][] = [
		['data-domain', channel.domain],
		['data-slug', channel.slug],
		['data-post-id', String(postId)],
		['data-language', channel.language],
		['data-text-loading', t('revisions.loading')],
		['data-text-empty', t('revisions.empty')],
		['data-text-failed', t('revisions.failed')],
		['data-text-version', t('revisions.version')],
		['data-text-edited-at', t('revisions.editedAt')],
	];
	const attributes = attributesHtml(data);
	return `<dialog class="dialog-panel revisions-dialog" aria-labelledby="revisions-heading" data-revisions-dialog${attributes}><div class="revisions-head"><h2 id="revisions-heading">${escapeHtml(t('revisions.heading'))}</h2><button class="button secondary" type="button" data-revisions-close>${escapeHtml(t('common.button.close'))}</button></div><p class="revisions-edited" data-revisions-edited></p><p class="revisions-status" role="status" data-revisions-status></p><ol class="revisions-list" role="list" data-revisions-list></ol></dialog>`;
}

/** What the post's Edit and Delete need: Edit (its author's) only where `editHref` is given. */
export interface PostChangeParts {
	postId: number;
	editHref: string | null;
}

/**
 * The post's Edit (a link to its editor: the author's) and Delete (the author's and an administrator's),
 * with Delete's confirm, closed until src/page-scripts/post-delete.ts opens it at the first press and
 * sends the deletion on Delete. An administrator's page puts them after its Hide (ModeratePost.astro).
 */
export function postChangeHtml(t: Translate, change: PostChangeParts): string {
	const edit =
		change.editHref === null ? '' : `<a class="button secondary" href="${escapeHtml(change.editHref)}">${escapeHtml(t('write.post.edit'))}</a>`;
	const data: [string, string][] = [
		['data-post-id', String(change.postId)],
		['data-text-deleted', t('write.post.deleted')],
		['data-text-failed', t('write.post.deleteFailed')],
		['data-text-too-many', t('common.message.tooManyRequests')],
	];
	const remove = escapeHtml(t('write.post.delete'));
	return `${edit}<button class="button secondary" type="button" aria-haspopup="dialog" data-delete-post>${remove}</button><dialog class="dialog-panel alert-dialog" aria-labelledby="delete-post-title" aria-describedby="delete-post-message" data-delete-post-dialog${attributesHtml(data)}><h2 id="delete-post-title">${escapeHtml(t('write.confirm.title'))}</h2><p id="delete-post-message">${escapeHtml(t('write.post.confirmDelete'))}</p><form method="dialog" class="dialog-actions"><button class="button secondary" type="submit" value="cancel">${escapeHtml(t('common.button.cancel'))}</button><button class="button" type="submit" value="confirm" autofocus>${remove}</button></form></dialog>`;
}

/** The author's Edit and Delete by their post's title (postChangeHtml), in their group: on their own post's page. */
export function postManageHtml(t: Translate, change: PostChangeParts): string {
	return `<div class="post-actions" role="group" aria-label="${escapeHtml(t('post.manage'))}" data-post-actions>${postChangeHtml(t, change)}</div>`;
}

/** The attributes of the guest's Like (PostActions.astro) that the member's has not. */
export const GUEST_LIKE_ATTRIBUTES = ['href', 'data-login-required', 'data-login-redirect', 'data-guest-like'];

/** A member's Report of someone else's post: "Reported" and aria-disabled once they have reported it. */
export function reportButtonHtml(t: Translate, report: { postId: number; reported: boolean }): string {
	const state = report.reported ? ' aria-disabled="true" data-reported' : ' aria-haspopup="dialog"';
	return `<button class="post-action report" type="button"${state} data-post-action="report" data-post-id="${report.postId}" data-text-reported="${escapeHtml(t('report.reported'))}"><svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true"><path d="M5 21V4m0 0h11l-2 4 2 4H5"></path></svg><span data-report-label>${escapeHtml(report.reported ? t('report.reported') : t('report.title'))}</span></button>`;
}

/**
 * The member's state of a post page's comments that the comments island reads at hydration
 * (src/islands/comments/data.ts): the comments they reported, and those of the page they like
 * (docs/reference/best-comments.md; left out when none, so a page without likes is as before). One
 * JSON data element, the first child of the comments section; a guest's page has none. `<` is
 * escaped so that no text closes it.
 */
export function memberCommentsHtml(state: { reportedComments: number[]; likedComments?: number[] }): string {
	const { reportedComments, likedComments = [] } = state;
	const data = likedComments.length > 0 ? { reportedComments, likedComments } : { reportedComments };
	return `<script type="application/json" data-member-comments>${JSON.stringify(data).replace(/</g, '\\u003c')}</script>`;
}

/** A member's comment box's live region of @ suggestions (src/islands/mentions/MentionStatus.tsx), empty. */
export const MENTION_STATUS_HTML = '<span class="visually-hidden" role="status"></span>';

/** The board page's Watch toggle: its classes and the marker its script finds it by (BoardView.astro). */
export const BOARD_WATCH_CLASS = 'button secondary board-watch';
export const BOARD_WATCH_MARKER = 'data-board-watch';
