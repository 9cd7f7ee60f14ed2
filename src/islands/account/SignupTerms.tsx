/**
 * The sign-up terms screen: the service terms and the personal-information collection, each
 * required, with "agree to all". Next records the agreement and goes on to the nickname.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { accountApi, failureText, restartWhenSignupExpired } from './api';
import { useHydrated } from '@/islands/common/use-hydrated';
import type { AccountTexts } from './texts';

interface Props {
	domain: string;
	slug: string;
	nextUrl: string;
	loginUrl: string;
	texts: AccountTexts;
}

export default function SignupTerms({ domain, slug, nextUrl, loginUrl, texts }: Props) {
	const [terms, setTerms] = useState(false);
	const [privacy, setPrivacy] = useState(false);
	const [busy, setBusy] = useState(false);
	const [error, setError] = useState<string | null>(null);
	const all = terms && privacy;
	const allRef = useRef<HTMLInputElement>(null);
	const termsRef = useRef<HTMLInputElement>(null);
	const privacyRef = useRef<HTMLInputElement>(null);
	const hydrated = useHydrated();

	// Keep what was ticked before the island hydrated.
	useEffect(() => {
		const everything = Boolean(allRef.current?.checked);
		if (everything || termsRef.current?.checked) setTerms(true);
		if (everything || privacyRef.current?.checked) setPrivacy(true);
	}, []);

	const submit = async (event: FormEvent<HTMLFormElement>) => {
		event.preventDefault();
		if (!all) {
			setError(texts['signup.terms.required']);
			return;
		}
		setBusy(true);
		setError(null);
		try {
			await accountApi(domain, slug).post('/signup/terms', { json: { terms, privacy } });
			location.assign(nextUrl);
		} catch (failure) {
			setBusy(false);
			if (restartWhenSignupExpired(failure, loginUrl)) {
				setError(texts['signup.expired']);
				return;
			}
			setError(failureText(failure, texts));
		}
	};

	return (
		<form className="terms" onSubmit={submit} noValidate>
			<label className="check terms-all">
				<input
					ref={allRef}
					type="checkbox"
					checked={all}
					onChange={(event) => {
						setTerms(event.target.checked);
						setPrivacy(event.target.checked);
					}}
				/>
				<span>{texts['signup.terms.all']}</span>
			</label>
			<div className="terms-item">
				<label className="check">
					<input ref={termsRef} type="checkbox" name="terms" checked={terms} onChange={(event) => setTerms(event.target.checked)} />
					<span>{texts['signup.terms.service']}</span>
				</label>
				<p className="terms-text">{texts['signup.terms.serviceText']}</p>
			</div>
			<div className="terms-item">
				<label className="check">
					<input ref={privacyRef} type="checkbox" name="privacy" checked={privacy} onChange={(event) => setPrivacy(event.target.checked)} />
					<span>{texts['signup.terms.privacy']}</span>
				</label>
				<p className="terms-text">{texts['signup.terms.privacyText']}</p>
			</div>
			{error && (
				<p className="form-error" role="alert">
					{error}
				</p>
			)}
			<button className="button" type="submit" disabled={!all || busy || !hydrated} aria-busy={busy}>
				{texts['common.button.next']}
			</button>
		</form>
	);
}
