/** The texts the search box needs, resolved on the server and passed as props. */
export const SEARCH_TEXT_KEYS = [
	'search.label',
	'search.placeholder',
	'search.button.clear',
	'search.button.submit',
	'search.type.label',
	'search.type.ALL',
	'search.type.TITLE',
	'search.type.CONTENT',
	'search.type.TITLE_AND_CONTENT',
	'search.message.required',
	'alert.message.minLength',
	'common.message.alert',
	'common.button.confirm',
] as const;

export type SearchTexts = Record<(typeof SEARCH_TEXT_KEYS)[number], string>;
