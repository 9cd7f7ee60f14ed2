/**
 * The global search box (docs/product-rules.md#search-box): q and searchType, a clear button while there is text, Enter
 * ignored during IME composition, and alert modals for an empty or too short keyword, after which
 * focus returns to the input in 300 ms. Submitting navigates to the search page; the box itself
 * makes no call. Pages render it as the plain form of SearchForm.astro, a working GET form, and
 * SearchBoxIsland.tsx puts this island in its place when a reader first interacts.
 */
import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import AlertDialog from '@/islands/common/AlertDialog';
import { DEFAULT_SEARCH_TYPE, SEARCH_MAX, SEARCH_TYPES, SearchKeywordSchema } from '@/schemas/search';
import type { SearchTexts } from './texts';

/** docs/product-rules.md#limits: focus goes back to the input 300 ms after a modal closes. */
const FOCUS_RETURN_MS = 300;

interface Props {
	action: string;
	initialQuery: string;
	initialSearchType: string;
	texts: SearchTexts;
}

export default function SearchBox({ action, initialQuery, initialSearchType, texts }: Props) {
	const inputRef = useRef<HTMLInputElement>(null);
	const [query, setQuery] = useState(initialQuery);
	const [searchType, setSearchType] = useState(
		(SEARCH_TYPES as readonly string[]).includes(initialSearchType) ? initialSearchType : DEFAULT_SEARCH_TYPE,
	);
	const [alert, setAlert] = useState<string | null>(null);

	// Keep what the reader typed before the island hydrated.
	useEffect(() => {
		const typed = inputRef.current?.value;
		if (typed !== undefined && typed !== initialQuery) setQuery(typed);
	}, [initialQuery]);

	const submit = (event: FormEvent<HTMLFormElement>) => {
		event.preventDefault();
		const parsed = SearchKeywordSchema.safeParse(query);
		if (!parsed.success) {
			setAlert(parsed.error.issues[0]?.message === 'search.message.required' ? texts['search.message.required'] : texts['alert.message.minLength']);
			return;
		}
		const params = new URLSearchParams({ q: parsed.data, searchType });
		window.location.assign(`${action}?${params.toString()}`);
	};

	const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
		// keyCode 229 marks the Enter that confirms an IME composition in some browsers.
		if (event.key === 'Enter' && (event.nativeEvent.isComposing || event.keyCode === 229)) event.preventDefault();
	};

	const clear = () => {
		setQuery('');
		inputRef.current?.focus();
	};

	const closed = () => {
		setAlert(null);
		// The native dialog hands focus straight back; the product rules return it after 300 ms instead (docs/product-rules.md#states).
		if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
		window.setTimeout(() => inputRef.current?.focus(), FOCUS_RETURN_MS);
	};

	const hasText = query.length > 0;
	return (
		<form className="search-box" role="search" action={action} method="get" noValidate onSubmit={submit} data-has-text={hasText ? 'true' : 'false'}>
			<label className="visually-hidden" htmlFor="search-type">
				{texts['search.type.label']}
			</label>
			<select id="search-type" name="searchType" value={searchType} onChange={(event) => setSearchType(event.target.value)}>
				{SEARCH_TYPES.map((type) => (
					<option key={type} value={type}>
						{texts[`search.type.${type}`]}
					</option>
				))}
			</select>
			<label className="visually-hidden" htmlFor="search-q">
				{texts['search.label']}
			</label>
			<input
				ref={inputRef}
				id="search-q"
				name="q"
				type="search"
				value={query}
				maxLength={SEARCH_MAX}
				placeholder={texts['search.placeholder']}
				autoComplete="off"
				enterKeyHint="search"
				onChange={(event) => setQuery(event.target.value)}
				onKeyDown={onKeyDown}
			/>
			{hasText && (
				<button type="button" className="search-clear" aria-label={texts['search.button.clear']} onClick={clear}>
					×
				</button>
			)}
			<button type="submit" className="search-submit" aria-label={texts['search.button.submit']}>
				<svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
					<circle cx="11" cy="11" r="7" fill="none" stroke="currentColor" strokeWidth="2.2" />
					<path d="m20 20-3.6-3.6" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" />
				</svg>
			</button>
			<AlertDialog
				open={alert !== null}
				title={texts['common.message.alert']}
				message={alert ?? ''}
				confirmLabel={texts['common.button.confirm']}
				onClosed={closed}
			/>
		</form>
	);
}
