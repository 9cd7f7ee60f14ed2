/**
 * A member's page only (member-session.ts): seeds the session store with
 * what the server rendered into the route-error dialog (a member's page is never cached, so it is
 * theirs), and keeps the server-rendered parts that show the session in step with it: the header's
 * account icon, the sidebar's member card, My Page's name, and the comment box before its island
 * loads. A new nickname shows in all of them at once, and a sign-out in another tab turns them to
 * signed out without a reload.
 */
import { isAdmin } from '@/lib/roles';
import { $session, startSession, type Session } from '@/stores/session';
import { pageUrls } from '@/lib/urls';

const dialog = document.querySelector<HTMLElement>('[data-route-error-dialog]');

/** The session the page was rendered for. */
function renderedSession(data: DOMStringMap): Session {
	const { session, userId, nickname = '', role, banEndsAt } = data;
	if (!userId || (session !== 'member' && session !== 'banned')) return { kind: 'guest' };
	const member = { userId: Number(userId), nickname, role: isAdmin({ role }) ? ('ADMIN' as const) : ('MEMBER' as const) };
	return session === 'banned' ? { kind: 'banned', member, banEndsAt: banEndsAt ? Number(banEndsAt) : null } : { kind: 'member', member };
}

/** The comment box as the page rendered it, before its island takes over: a guest's box, read-only. */
function showGuestCommentBox(): void {
	const section = document.querySelector<HTMLElement>('[data-comments]:not([data-mounted])');
	const box = section?.querySelector<HTMLTextAreaElement>('#comment-box-new');
	if (!section || !box) return;
	const texts = JSON.parse(section.dataset['texts'] ?? '{}') as Record<string, string | undefined>;
	box.readOnly = true;
	box.placeholder = texts['comment.write.guestPlaceholder'] ?? box.placeholder;
}

if (dialog) {
	const { domain = '', slug = '', channelBase = '' } = dialog.dataset;
	const urls = pageUrls(channelBase);
	startSession(domain, slug, renderedSession(dialog.dataset));
	$session.subscribe((session) => {
		if (!session) return;
		const member = session.kind === 'guest' ? null : session.member;
		const account = document.querySelector<HTMLAnchorElement>('[data-account-icon]');
		if (account) account.href = member ? urls.mypage : urls.login(urls.mypage);
		const card = document.querySelector<HTMLElement>('[data-member-card]');
		if (card) card.hidden = !member;
		for (const name of document.querySelectorAll('[data-member-nickname], [data-mypage-nickname]')) name.textContent = member?.nickname ?? '';
		if (!member) showGuestCommentBox();
	});
}
