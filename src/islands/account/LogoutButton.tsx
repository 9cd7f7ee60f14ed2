/**
 * Logout: ends the session on the server, signs this tab and the channel's others out (the session
 * store) and goes to the channel home, whose toast says "You're logged out." (docs/reference/messages.md).
 */
import { accountApi, failureText } from './api';
import type { AccountTexts } from './texts';
import { changeSession, GUEST } from '@/stores/session';
import { showToastOnNextPage } from '@/stores/toasts';
import ActionButton from '@/islands/common/ActionButton';

interface Props {
	domain: string;
	slug: string;
	homeUrl: string;
	label: string;
	texts: Pick<AccountTexts, 'common.message.error' | 'common.message.tooManyRequests' | 'common.message.loggedOut'>;
}

export default function LogoutButton({ domain, slug, homeUrl, label, texts }: Props) {
	const logout = async (): Promise<string | null> => {
		try {
			await accountApi(domain, slug).post('/auth/logout');
			changeSession(domain, slug, GUEST);
			showToastOnNextPage(texts['common.message.loggedOut']);
			location.replace(homeUrl);
			return null;
		} catch (failure) {
			return failureText(failure, texts);
		}
	};
	return <ActionButton label={label} run={logout} />;
}
