/**
 * The global search box's markup, the only one: a working GET form (q and searchType), the clear
 * button while there is text, and the submit button. The server renders it to plain HTML in every
 * page's header (src/components/layout/SearchForm.astro, no handlers: the form works without
 * JavaScript), and the search island (./SearchBox.tsx) renders it with its handlers once a reader
 * first reaches for it.
 */
import type { FormEvent, KeyboardEvent, ReactNode, Ref } from 'react';
import { DEFAULT_SEARCH_TYPE, SEARCH_MAX, SEARCH_TYPES } from '@/schemas/search';
import type { SearchTexts } from './texts';

/** The search type a page asked for, or the default one when it names none of the types. */
export const searchTypeOf = (asked: string): string => ((SEARCH_TYPES as readonly string[]).includes(asked) ? asked : DEFAULT_SEARCH_TYPE);

interface Props {
	action: string;
	query: string;
	searchType: string;
	texts: SearchTexts;
	inputRef?: Ref<HTMLInputElement>;
	onSubmit?: (event: FormEvent<HTMLFormElement>) => void;
	onQueryChange?: (query: string) => void;
	onSearchTypeChange?: (searchType: string) => void;
	onKeyDown?: (event: KeyboardEvent<HTMLInputElement>) => void;
	onClear?: () => void;
	/** The island's alert, inside the form. */
	children?: ReactNode;
}

export default function SearchFields({
	action,
	query,
	searchType,
	texts,
	inputRef,
	onSubmit,
	onQueryChange,
	onSearchTypeChange,
	onKeyDown,
	onClear,
	children,
}: Props) {
	const hasText = query.length > 0;
	return (
		<form className="search-box" role="search" action={action} method="get" noValidate onSubmit={onSubmit} data-has-text={hasText ? 'true' : 'false'}>
			<label className="visually-hidden" htmlFor="search-type">
				{texts['search.type.label']}
			</label>
			<select id="search-type" name="searchType" value={searchType} onChange={(event) => onSearchTypeChange?.(event.target.value)}>
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
				onChange={(event) => onQueryChange?.(event.target.value)}
				onKeyDown={onKeyDown}
			/>
			{hasText && (
				<button type="button" className="search-clear" aria-label={texts['search.button.clear']} onClick={onClear}>
					×
				</button>
			)}
			<button type="submit" className="search-submit" aria-label={texts['search.button.submit']}>
				<svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
					<circle cx="11" cy="11" r="7" fill="none" stroke="currentColor" strokeWidth="2.2" />
					<path d="m20 20-3.6-3.6" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" />
				</svg>
			</button>
			{children}
		</form>
	);
}
