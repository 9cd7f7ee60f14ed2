/**
 * The login-required modal (src/components/layout/LoginRequiredDialog.astro, on a guest's page of a
 * community with sign-in): a link that needs a member (`data-login-required`) asks first; Log in
 * goes to login with the link's target (or its `data-login-redirect`) as the redirectUrl.
 */
import { loginPageUrl } from '@/lib/urls';

const dialog = document.querySelector<HTMLDialogElement>('[data-login-required-dialog]');
let target = '';
document.addEventListener(
	'click',
	(event) => {
		const link = (event.target as Element | null)?.closest<HTMLAnchorElement>('a[data-login-required]');
		if (!dialog || !link || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
		event.preventDefault();
		const url = new URL(link.href, location.href);
		target = link.dataset['loginRedirect'] ?? `${url.pathname}${url.search}`;
		dialog.returnValue = '';
		dialog.showModal();
	},
	{ capture: true },
);
dialog?.addEventListener('close', () => {
	if (dialog.returnValue === 'confirm')
		location.assign(loginPageUrl(dialog.dataset['channelBase'] ?? '', target || location.pathname + location.search));
});
