/** Logout: ends the session on the server, forgets the stored user id and goes to the channel home. */
import { useState } from 'react';
import { accountApi, failureText } from './api';
import type { AccountTexts } from './texts';
import { setUser } from '@/stores/user';
import { useHydrated } from '@/islands/common/use-hydrated';

interface Props {
	apiBase: string;
	domain: string;
	slug: string;
	homeUrl: string;
	label: string;
	texts: Pick<AccountTexts, 'common.message.error' | 'common.message.tooManyRequests'>;
}

export default function LogoutButton({ apiBase, domain, slug, homeUrl, label, texts }: Props) {
	const [busy, setBusy] = useState(false);
	const [error, setError] = useState<string | null>(null);
	const hydrated = useHydrated();
	const logout = async () => {
		setBusy(true);
		try {
			await accountApi.post(`${apiBase}/auth/logout`);
			setUser(domain, slug, null);
			location.replace(homeUrl);
		} catch (failure) {
			setBusy(false);
			setError(failureText(failure, texts));
		}
	};
	return (
		<>
			<button className="button secondary" type="button" onClick={logout} disabled={busy || !hydrated} aria-busy={busy}>
				{label}
			</button>
			{error && (
				<p className="form-error" role="alert">
					{error}
				</p>
			)}
		</>
	);
}
