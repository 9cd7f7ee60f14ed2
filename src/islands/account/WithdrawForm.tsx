/**
 * Withdrawal (docs/reference/product-rules.md#validation): possible only with 'I will leave the community.' ticked. After it the
 * stored user id is gone and the channel home shows 'You have withdrawn from the community.'.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { accountApi, failureText } from './api';
import { changeSession, GUEST } from '@/stores/session';
import { showToastOnNextPage } from '@/stores/toasts';
import { useHydrated } from '@/islands/common/use-hydrated';
import type { AccountTexts } from './texts';

interface Props {
	domain: string;
	slug: string;
	homeUrl: string;
	texts: AccountTexts;
}

export default function WithdrawForm({ domain, slug, homeUrl, texts }: Props) {
	const [agree, setAgree] = useState(false);
	const [busy, setBusy] = useState(false);
	const [error, setError] = useState<string | null>(null);
	const agreeRef = useRef<HTMLInputElement>(null);
	const hydrated = useHydrated();

	// Keep a tick made before the island hydrated.
	useEffect(() => {
		if (agreeRef.current?.checked) setAgree(true);
	}, []);

	const submit = async (event: FormEvent<HTMLFormElement>) => {
		event.preventDefault();
		if (!agree) return;
		setBusy(true);
		setError(null);
		try {
			await accountApi(domain, slug).post('/me/withdrawal', { json: { agree } });
			changeSession(domain, slug, GUEST);
			showToastOnNextPage(texts['withdraw.done']);
			location.replace(homeUrl);
		} catch (failure) {
			setBusy(false);
			setError(failureText(failure, texts));
		}
	};

	return (
		<form className="withdraw-form" onSubmit={submit} noValidate>
			<label className="check">
				<input ref={agreeRef} type="checkbox" checked={agree} onChange={(event) => setAgree(event.target.checked)} />
				<span>{texts['withdraw.agree']}</span>
			</label>
			{error && (
				<p className="form-error" role="alert">
					{error}
				</p>
			)}
			<button className="button danger" type="submit" disabled={!agree || busy || !hydrated} aria-busy={busy}>
				{texts['withdraw.submit']}
			</button>
		</form>
	);
}
