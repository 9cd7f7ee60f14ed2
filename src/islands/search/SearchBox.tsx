/**
 * The global search box (docs/reference/product-rules.md#search-box): q and searchType, a clear button while there is text, Enter
 * ignored during IME composition, and alert modals for an empty or too short keyword, after which
 * focus returns to the input in 300 ms. Submitting navigates to the search page; the box itself
 * makes no call. Its markup is ./SearchFields.tsx, which pages render as plain HTML, a working GET
 * form (SearchForm.astro), and SearchBoxIsland.tsx puts this island in its place when a reader first interacts.
 */
import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import AlertDialog from '@/islands/common/AlertDialog';
import { SearchKeywordSchema } from '@/schemas/search';
import SearchFields, { searchTypeOf } from './SearchFields';
import type { SearchTexts } from './texts';

/** docs/reference/product-rules.md#limits: focus goes back to the input 300 ms after a modal closes. */
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
	const [searchType, setSearchType] = useState(() => searchTypeOf(initialSearchType));
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
		// The native dialog hands focus straight back; the product rules return it after 300 ms instead (docs/reference/product-rules.md#states).
		if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
		window.setTimeout(() => inputRef.current?.focus(), FOCUS_RETURN_MS);
	};

	return (
		<SearchFields
			action={action}
			query={query}
			searchType={searchType}
			texts={texts}
			inputRef={inputRef}
			onSubmit={submit}
			onQueryChange={setQuery}
			onSearchTypeChange={setSearchType}
			onKeyDown={onKeyDown}
			onClear={clear}
		>
			<AlertDialog
				open={alert !== null}
				title={texts['common.message.alert']}
				message={alert ?? ''}
				confirmLabel={texts['common.button.confirm']}
				onClosed={closed}
			/>
		</SearchFields>
	);
}
