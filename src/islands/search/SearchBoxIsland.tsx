/**
 * Puts the search island in place of the server's plain search form (SearchForm.astro) when a
 * reader first interacts with it: the island starts from what the form holds (the typed keyword,
 * the chosen search type) and the focus and caret stay where they were.
 */
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import SearchBox from './SearchBox';
import type { SearchTexts } from './texts';

export function mountSearchBox(box: HTMLElement): void {
	const { action, texts } = JSON.parse(box.dataset['searchBox'] ?? '{}') as { action: string; texts: SearchTexts };
	const input = box.querySelector<HTMLInputElement>('input[name="q"]');
	const select = box.querySelector('select');
	const focused = document.activeElement === input ? 'q' : document.activeElement === select ? 'searchType' : null;
	const caret = { start: input?.selectionStart ?? null, end: input?.selectionEnd ?? null };
	const root = createRoot(box);
	flushSync(() => root.render(<SearchBox action={action} initialQuery={input?.value ?? ''} initialSearchType={select?.value ?? ''} texts={texts} />));
	if (focused) {
		const field = box.querySelector<HTMLElement>(`[name="${focused}"]`);
		field?.focus();
		if (field instanceof HTMLInputElement && caret.start !== null && caret.end !== null) field.setSelectionRange(caret.start, caret.end);
	}
	box.dataset['searchReady'] = '';
}
