// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import astro from 'eslint-plugin-astro';
import globals from 'globals';

export default tseslint.config(
	{
		ignores: ['dist/', '.astro/', '.wrangler/', 'node_modules/', 'worker-configuration.d.ts', 'test-results/', 'playwright-report/', 'bench-results/', '.test-reports/'],
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
		},
	},
	{
		files: ['**/*.astro'],
		// Astro components may return a Response (redirects, rewrites) from their frontmatter.
		rules: { 'no-unreachable': 'off' },
	},
);
