/**
 * A Vite plugin for the server build: two pure functions Astro runs on every page render, for
 * answers that are the same every time, get a bounded memo in the isolate (docs/decisions/performance.md):
 * - `generateCspDigest` (astro/dist/core/encryption.js) hashes every inline style and script of a
 *   page for its Content-Security-Policy, though they are the build's own; with
 *   `inlineStylesheets: 'always'` that is some 20 KB of CSS hashed per page view;
 * - `splitAssetPath` (astro/dist/core/render/ssr-element.js) parses each script's and island's
 *   asset path as a URL to build its link;
 * - `renderCspContent` (astro/dist/runtime/server/render/csp.js) builds the policy header from the
 *   page's directives and hashes, which are the same for every page of a route and channel.
 * The first two are keyed by their argument itself (the build's texts are the same string objects
 * on every request, whose hash V8 keeps); the policy by the JSON of its inputs. The build fails if
 * Astro's code changes shape.
 */
/** How many answers each memo keeps: a build's texts and assets, and the channels' theme styles. */
const MAX_ENTRIES = 512;

const PATCHES = [
	{
		file: /[\\/]astro[\\/]dist[\\/]core[\\/]encryption\.js$/,
		declaration: 'async function generateCspDigest(data, algorithm) {',
		memo: [
			'const rememberedCspDigests = new Map();',
			'async function generateCspDigest(data, algorithm) {',
			'  let digests = rememberedCspDigests.get(algorithm);',
			'  if (digests === undefined) rememberedCspDigests.set(algorithm, (digests = new Map()));',
			'  const known = digests.get(data);',
			'  if (known !== undefined) return known;',
			'  const digest = await computeCspDigest(data, algorithm);',
			`  if (digests.size < ${MAX_ENTRIES}) digests.set(data, digest);`,
			'  return digest;',
			'}',
			'async function computeCspDigest(data, algorithm) {',
		],
	},
	{
		file: /[\\/]astro[\\/]dist[\\/]core[\\/]render[\\/]ssr-element\.js$/,
		declaration: 'function splitAssetPath(path) {',
		memo: [
			'const rememberedAssetPaths = new Map();',
			'function splitAssetPath(path) {',
			'  let known = rememberedAssetPaths.get(path);',
			'  if (known === undefined) {',
			'    known = parseAssetPath(path);',
			`    if (rememberedAssetPaths.size < ${MAX_ENTRIES}) rememberedAssetPaths.set(path, known);`,
			'  }',
			'  return { pathname: known.pathname, suffix: known.suffix };',
			'}',
			'function parseAssetPath(path) {',
		],
	},
	{
		file: /[\\/]astro[\\/]dist[\\/]runtime[\\/]server[\\/]render[\\/]csp\.js$/,
		declaration: 'function renderCspContent(result) {',
		memo: [
			'const rememberedPolicies = new Map();',
			'function renderCspContent(result) {',
			'  const key = JSON.stringify([result.directives, result.scriptDirective, result.styleDirective, result._metadata.extraScriptHashes, result._metadata.extraStyleHashes]);',
			'  let known = rememberedPolicies.get(key);',
			'  if (known === undefined) {',
			'    known = buildCspContent(result);',
			`    if (rememberedPolicies.size < ${MAX_ENTRIES}) rememberedPolicies.set(key, known);`,
			'  }',
			'  return known;',
			'}',
			'function buildCspContent(result) {',
		],
	},
];

export function astroMemos() {
	return {
		name: 'astro-memos',
		transform(code, id) {
			const file = id.split('?')[0];
			const patch = PATCHES.find((candidate) => candidate.file.test(file));
			if (!patch) return null;
			if (!code.includes(patch.declaration)) throw new Error(`astro-memos: ${id} no longer declares "${patch.declaration}"`);
			return { code: code.replace(patch.declaration, patch.memo.join('\n')), map: null };
		},
	};
}
