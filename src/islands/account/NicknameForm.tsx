/**
 * The nickname field of sign-up and of mypage/nickname: the rules of docs/reference/product-rules.md#validation are checked here
 * with the same schema the server uses, then by the server, whose answer (taken, current, …)
 * shows under the field as well. A new nickname goes into the session store, so the header, the
 * sidebar and My Page (and the channel's other tabs) show it at once, without a reload.
 */
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useStore } from '@nanostores/react';
import { accountApi, failureText, nicknameErrorText, restartWhenSignupExpired } from './api';
import { withParticles } from '@/i18n/particles';
import { NICKNAME_MAX, NICKNAME_MESSAGE_KEYS, nicknameProblem } from '@/schemas/nickname';
import { $session, changeSession, renameMember } from '@/stores/session';
import { showToast, showToastOnNextPage } from '@/stores/toasts';
import { useHydrated } from '@/islands/common/use-hydrated';
import type { AccountTexts } from './texts';
import type { Language } from '@/schemas/channel';

interface Props {
	mode: 'signup' | 'change';
	domain: string;
	slug: string;
	/** The channel's language, for dates in messages. */
	language: Language;
	/** The member's nickname now (change), shown as the starting value. */
	current?: string;
	/** Where sign-up goes when it has run out. */
	loginUrl: string;
	texts: AccountTexts;
}

export default function NicknameForm({ mode, domain, slug, language, current: rendered = '', loginUrl, texts }: Props) {
	// The nickname now: the store's once the page has seeded it (it follows a change made here or in another tab).
	const session = useStore($session, { ssr: 'initial' });
	const current = session && session.kind !== 'guest' ? session.member.nickname : rendered;
	const [nickname, setNickname] = useState(current);
	const [error, setError] = useState<string | null>(null);
	const [done, setDone] = useState<string | null>(null);
	const [busy, setBusy] = useState(false);
	const id = useId();
	const inputRef = useRef<HTMLInputElement>(null);
	const hydrated = useHydrated();

	// Keep what was typed before the island hydrated.
	useEffect(() => {
		const typed = inputRef.current?.value;
		if (typed !== undefined && typed !== current) setNickname(typed);
	}, [current]);

	const submit = async (event: FormEvent<HTMLFormElement>) => {
		event.preventDefault();
		const form = event.currentTarget;
		setDone(null);
		const problem = nicknameProblem(nickname);
		if (problem) {
			setError(texts[NICKNAME_MESSAGE_KEYS[problem]]);
			return;
		}
		setBusy(true);
		setError(null);
		// Dynamic everywhere, as on the write screen, so that the module needs no preload helper there.
		const { challengeToken, isChallengeFailure, spamFailureText, submitOnChallenge } = await import('@/lib/spam-failure');
		const token = mode === 'signup' ? challengeToken() : undefined;
		try {
			if (mode === 'signup') {
				const answer = await accountApi(domain, slug).post('/signup', { json: { nickname, challengeToken: token } });
				changeSession(domain, slug, { kind: 'member', member: { ...answer.user, role: 'MEMBER' } });
				// Welcome, with what to do next, on the page the sign-up returns to (docs/reference/messages.md).
				showToastOnNextPage(withParticles(texts['signup.welcome'].replace('{{nickname}}', answer.user.nickname)));
				location.replace(answer.redirectUrl);
				return;
			}
			await accountApi(domain, slug).put('/me/nickname', { json: { nickname } });
			const changed = withParticles(texts['nickname.changed'].replace('{{nickname}}', nickname));
			setDone(changed);
			setBusy(false);
			renameMember(domain, slug, nickname);
			showToast(changed);
		} catch (failure) {
			setBusy(false);
			if (restartWhenSignupExpired(failure, loginUrl)) {
				setError(texts['signup.expired']);
				return;
			}
			// Sent before the human check gave its token (the nickname is fine): sent again when it does.
			if (mode === 'signup' && token === undefined && isChallengeFailure(failure) && submitOnChallenge(form, texts['spam.challengeWait'])) {
				setError(null);
				return;
			}
			// A refused human check is said at the check (''), not at the nickname.
			const spam = spamFailureText(failure, texts, language);
			setError(spam === '' ? null : (spam ?? nicknameErrorText(failure, texts, language) ?? failureText(failure, texts)));
		}
	};

	return (
		<form className="nickname-form" onSubmit={submit} noValidate>
			<div className="field">
				<label htmlFor={`${id}-nickname`}>{texts['nickname.label']}</label>
				<input
					ref={inputRef}
					id={`${id}-nickname`}
					name="nickname"
					value={nickname}
					maxLength={NICKNAME_MAX * 2}
					autoComplete="nickname"
					autoCapitalize="off"
					spellCheck={false}
					aria-invalid={error ? true : undefined}
					aria-describedby={`${id}-message`}
					onChange={(event) => {
						setNickname(event.target.value);
						setError(null);
						setDone(null);
					}}
				/>
				<p id={`${id}-message`} className={error ? 'field-error' : 'field-hint'} role={error ? 'alert' : undefined} data-nickname-message>
					{error ?? done ?? texts['nickname.hint']}
				</p>
			</div>
			<button className="button" type="submit" disabled={busy || !hydrated} aria-busy={busy}>
				{mode === 'signup' ? texts['signup.nickname.submit'] : texts['nickname.submit']}
			</button>
		</form>
	);
}
