// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import astro from 'eslint-plugin-astro';
import globals from 'globals';

/**
 * Modules that only the Worker may load: services, loaders, the API and the runtime's bindings.
 * Their types are another matter: `import type` is erased from the bundle, so the browser may read
 * the server's types (src/lib/api-types.ts derives the islands' contract from the API's; see
 * docs/reference/api-contract.md). A value import stays forbidden.
 */
const SERVER_ONLY = [
	{
		group: ['@/server/*', '@/server/**', '**/server/**'],
		allowTypeImports: true,
		message: 'Browser code must not load server modules; pass data as props or call the API (`import type` is allowed).',
	},
	{
		group: ['@functions/*', '@functions/**', '**/functions/**'],
		allowTypeImports: true,
		message: 'Browser code must not load the API (`import type` is allowed).',
	},
	{ group: ['cloudflare:*'], message: 'Browser code has no Cloudflare bindings.' },
];

/**
 * Browser code calls the API through src/lib/api-client.ts only (docs/reference/api-contract.md): its paths,
 * bodies and answers are typed from the routers, so a hand-made request or a hand-typed answer is
 * refused. `fetch` may be called only by the files named in RAW_FETCH_FILES.
 */
const RAW_FETCH = [
	{
		selector: "CallExpression[callee.name='fetch']",
		message: 'Call the API through src/lib/api-client.ts (createApiClient / memberRoutes), not fetch.',
	},
	{
		selector: "CallExpression > MemberExpression.callee[property.name='fetch'][object.name=/^(window|globalThis|self)$/]",
		message: 'Call the API through src/lib/api-client.ts (createApiClient / memberRoutes), not fetch.',
	},
];
/** What an answer typed by hand looked like: the client's answer is the route's own type (src/lib/api-types.ts). */
const HAND_TYPED_ANSWERS = [
	{
		selector: 'CallExpression[callee.property.name=/^(get|post|put|patch|delete|request|json)$/] > TSTypeParameterInstantiation > TSTypeLiteral',
		message: "A call's answer type comes from the route (src/lib/api-types.ts), never an inline object type.",
	},
	{
		selector: "TSAsExpression[typeAnnotation.type='TSTypeLiteral'] > AwaitExpression > CallExpression[callee.property.name='json']",
		message: "An answer's shape comes from the route (src/lib/api-types.ts), never a cast of response.json().",
	},
	{
		selector: ':matches(TSInterfaceDeclaration, TSTypeAliasDeclaration)[id.name=/(Answer|Response)$/]',
		message: "An answer's shape is derived from the routers in src/lib/api-types.ts, not declared in browser code.",
	},
];
/** The streams that are not JSON calls, and so may use fetch themselves. */
const RAW_FETCH_FILES = [
	// The data export: a file download, read as a Blob with its Content-Disposition, not an envelope.
	'src/islands/account/ExportButton.tsx',
	// The thumbnail's image bytes with their own Content-Type (the image itself goes by XMLHttpRequest, for its progress).
	'src/islands/editor/thumbnail.ts',
	// The avatar's sizes, image bytes with their own Content-Type, and the reload of the browser's copies of its stable URLs.
	'src/islands/account/avatar-image.ts',
];
const BROWSER_CALLERS = ['src/islands/**/*.{ts,tsx}', 'src/page-scripts/**/*.ts', 'src/**/*.astro/*.ts'];

/** Islands and stores never load a page script, not even lazily. */
const NO_LAZY_PAGE_SCRIPT = {
	selector: 'ImportExpression[source.value=/^@\\/page-scripts\\//]',
	message: 'Islands and stores never load a page script, not even lazily: use src/stores/toasts.ts or src/islands/common.',
};
/** A role has one home, src/lib/roles.ts: `role === 'ADMIN'` is isAdmin, and the type of a role is Role. */
const ROLE_SPELLED = [
	{
		selector: "BinaryExpression[operator=/^[!=]==$/] > Literal[value='ADMIN']",
		message: "Ask isAdmin (src/lib/roles.ts) instead of comparing a role with 'ADMIN'.",
	},
	{
		selector: "TSLiteralType > Literal[value='ADMIN']",
		message: 'Use the Role type of src/lib/roles.ts instead of spelling the roles.',
	},
];

export default tseslint.config(
	{
		ignores: [
			'dist/',
			'dist-pages/',
			'dist-bench/',
			'.astro/',
			// wrangler's state and scratch folders, the test SQL Worker's too (scripts/test-sql/.wrangler).
			'**/.wrangler/',
			'node_modules/',
			'worker-configuration.d.ts',
			'test-results/',
			'playwright-report/',
			'bench-results/',
			'.test-reports/',
		],
	},
	js.configs.recommended,
	...tseslint.configs.recommended,
	...astro.configs.recommended,
	{
		languageOptions: { globals: { ...globals.browser, ...globals.node } },
		rules: {
			// Unused function arguments are allowed when prefixed with an underscore (interface shapes).
			'@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
			'no-console': ['warn', { allow: ['error', 'warn', 'info', 'log'] }],
			eqeqeq: ['error', 'always'],
			// `import { type A } from 'm'` keeps `import 'm'` under verbatimModuleSyntax: a type-only import says `import type`.
			'@typescript-eslint/no-import-type-side-effects': 'error',
		},
	},
	{
		// src/ and functions/ import each other through the aliases, never through `../`.
		files: ['src/**/*.{ts,tsx,astro}', 'functions/**/*.ts'],
		rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['../*'], message: 'Use the @/ or @functions/ alias.' }] }] },
	},
	{
		// Islands, stores, browser scripts and the shared lib, schemas and texts run in the browser.
		// typescript-eslint's form of the rule, which can let `import type` through.
		files: ['src/islands/**', 'src/stores/**', 'src/page-scripts/**', 'src/lib/**', 'src/schemas/**', 'src/i18n/**'],
		rules: {
			'no-restricted-imports': 'off',
			'@typescript-eslint/no-restricted-imports': ['error', { patterns: [{ group: ['../*'], message: 'Use the @/ alias.' }, ...SERVER_ONLY] }],
		},
	},
	{
		// A page script is one page's part; islands and stores share through stores and src/islands/common, which page scripts use too.
		files: ['src/islands/**', 'src/stores/**'],
		rules: {
			'@typescript-eslint/no-restricted-imports': [
				'error',
				{
					patterns: [
						{ group: ['../*'], message: 'Use the @/ alias.' },
						...SERVER_ONLY,
						{
							group: ['@/page-scripts/*', '@/page-scripts/**'],
							message: 'Islands and stores never load a page script: show toasts through src/stores/toasts.ts, dialogs through src/islands/common.',
						},
					],
				},
			],
			'no-restricted-syntax': ['error', NO_LAZY_PAGE_SCRIPT, ...ROLE_SPELLED],
		},
	},
	{
		// Pages, layouts and components read data through the loaders and services, never from a binding.
		files: ['src/pages/**', 'src/layouts/**', 'src/components/**'],
		rules: {
			'no-restricted-imports': [
				'error',
				{
					patterns: [
						{ group: ['../*'], message: 'Use the @/ alias.' },
						{ group: ['cloudflare:*'], message: 'Pages get bindings through src/server/loaders.' },
						{ group: ['@functions/*', '@functions/**'], message: 'Pages call services, never the API.' },
						{ group: ['@/stores/*'], message: 'Stores live in the browser; a page renders on the Worker.' },
					],
				},
			],
		},
	},
	{
		// Services know nothing of HTTP routing, pages or the browser.
		files: ['src/server/**'],
		ignores: ['src/server/loaders/**'],
		rules: {
			'no-restricted-imports': [
				'error',
				{
					patterns: [
						{ group: ['../*'], message: 'Use the @/ alias.' },
						{ group: ['@functions/*', '@functions/**'], message: 'Services must not depend on the API layer.' },
						{ group: ['@/server/loaders/*', 'astro', 'astro:*'], message: 'Services must not depend on page loaders or Astro.' },
						{
							group: ['@/islands/*', '@/islands/**', '@/stores/*', '@/components/*', '@/components/**'],
							message: 'Services must not load browser or page code.',
						},
					],
				},
			],
		},
	},
	...[
		{
			// The Worker's shell (entry, edge cache, headers, cron) runs around everything and mounts nothing of the API itself (src/fetch.ts does).
			room: 'functions/shell/**',
			walls: [
				{
					group: ['@functions/api/*', '@functions/api/**', '@functions/callbacks/*'],
					message: 'The shell runs around the API and the callbacks; src/fetch.ts mounts them.',
				},
			],
		},
		{
			// The API is mounted by src/fetch.ts; it never reaches back into the shell or the callbacks.
			room: 'functions/api/**',
			walls: [
				{ group: ['@functions/shell/*', '@functions/callbacks/*'], message: 'The API knows nothing of the Worker shell or the non-API routes.' },
			],
		},
		{
			// The providers' return and the email links may use the API's helpers, never its routers.
			room: 'functions/callbacks/**',
			walls: [
				{
					group: ['@functions/shell/*', '@functions/api/routers/*', '@functions/api/app'],
					message: 'A callback route is not part of the API or the shell.',
				},
			],
		},
	].map(
		/** @returns {import('eslint').Linter.Config} */
		({ room, walls }) => ({
			// The API reads through services; page loaders belong to pages.
			files: [room],
			rules: {
				'no-restricted-imports': [
					'error',
					{
						patterns: [
							{ group: ['../*'], message: 'Use the @functions/ alias.' },
							{ group: ['@/server/loaders/*'], message: 'Page loaders are for pages; the API calls services.' },
							{
								group: ['@/islands/*', '@/islands/**', '@/stores/*', '@/components/*', '@/components/**'],
								message: 'The API must not load browser or page code.',
							},
							...walls,
						],
					},
				],
			},
		}),
	),
	{
		files: ['src/**/*.{ts,tsx,astro}', 'functions/**/*.ts'],
		ignores: ['src/lib/roles.ts', 'src/islands/**', 'src/stores/**'],
		rules: { 'no-restricted-syntax': ['error', ...ROLE_SPELLED] },
	},
	{
		// axe runs in the page (tests/e2e/axe.ts): the builder's default opens a blank page after each run.
		files: ['tests/**/*.ts'],
		ignores: ['tests/e2e/axe.ts'],
		rules: {
			'no-restricted-imports': ['error', { paths: [{ name: '@axe-core/playwright', message: 'Use axe(page) from tests/e2e/axe.ts.' }] }],
		},
	},
	// One no-restricted-syntax per file (a later block replaces an earlier one's): each block lists
	// every selector its files answer to.
	{
		files: BROWSER_CALLERS,
		ignores: RAW_FETCH_FILES,
		rules: { 'no-restricted-syntax': ['error', ...RAW_FETCH, ...HAND_TYPED_ANSWERS, ...ROLE_SPELLED] },
	},
	{
		files: ['src/islands/**/*.{ts,tsx}'],
		ignores: RAW_FETCH_FILES,
		rules: { 'no-restricted-syntax': ['error', ...RAW_FETCH, ...HAND_TYPED_ANSWERS, NO_LAZY_PAGE_SCRIPT, ...ROLE_SPELLED] },
	},
	{
		files: RAW_FETCH_FILES,
		rules: { 'no-restricted-syntax': ['error', ...HAND_TYPED_ANSWERS, NO_LAZY_PAGE_SCRIPT, ...ROLE_SPELLED] },
	},
	{
		files: ['**/*.astro'],
		// Astro components may return a Response (redirects, rewrites) from their frontmatter.
		rules: { 'no-unreachable': 'off' },
	},
);
