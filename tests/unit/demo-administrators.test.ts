/**
 * The README (and docs/guides/operations.md) name each demo community's administrator exactly as the seed
 * makes them (scripts/seed/demo.mjs: the first of a community's nicknames, role ADMIN, signing in
 * with the community's first provider) and as the local provider lists them
 * (scripts/idp/chooser.mjs: marked "administrator", under that provider only). "The first member
 * the local provider lists" was true for one provider button of each community, not the others.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEMO_CHANNELS } from '../../scripts/seed/demo.mjs';
import { demoMembers } from '../../scripts/idp/chooser.mjs';

const PROVIDER_NAMES = { APPLE: 'Apple', GOOGLE: 'Google', X: 'X' } as const;
type ProviderName = keyof typeof PROVIDER_NAMES;

/** Each demo community's administrator, from the seed's rules. */
const administrators = DEMO_CHANNELS.map((channel) => {
	const providers = channel.providers as ProviderName[];
	return { path: `${channel.domain}/${channel.slug}`, nickname: channel.content.nicknames[0] as string, provider: providers[0] ?? null, providers };
});

const readme = readFileSync('README.md', 'utf8').replace(/\s+/g, ' ');
const docs = readFileSync('docs/guides/operations.md', 'utf8').replace(/\s+/g, ' ');

describe('the demo administrators', () => {
	it('are listed by the local provider as "administrator", first under the community\'s first provider and under no other', () => {
		for (const admin of administrators) {
			if (!admin.provider) continue;
			const listed = demoMembers(`/${admin.path}`, admin.provider);
			expect(listed[0]).toMatchObject({ nickname: admin.nickname, label: 'administrator' });
			for (const other of admin.providers.slice(1))
				expect(demoMembers(`/${admin.path}`, other).some((member: { nickname: string }) => member.nickname === admin.nickname)).toBe(false);
		}
	});

	it.each([
		['README.md', readme],
		['docs/guides/operations.md', docs],
	])('%s names each of them with their community and provider, and not "the first member the local provider lists"', (_, text) => {
		expect(text.includes('first member the local provider lists'), 'the old, wrong sentence').toBe(false);
		for (const admin of administrators) {
			expect(text.includes(admin.nickname), admin.path).toBe(true);
			if (admin.provider) {
				// "{nickname} on {community}", and the provider's name follows within the sentence.
				const at = text.indexOf(`${admin.nickname} on ${admin.path}`);
				expect(at, admin.path).toBeGreaterThanOrEqual(0);
				expect(text.slice(at, at + 200), admin.path).toContain(`with ${PROVIDER_NAMES[admin.provider]}`);
			} else {
				expect(text.includes(`${admin.path} offers no sign-in`), admin.path).toBe(true);
			}
		}
	});
});
