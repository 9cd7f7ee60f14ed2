/**
 * The Turnstile widget on a page that asks for it (docs/reference/spam-defence.md): the deployment's widget,
 * with the page's Content-Security-Policy widened to its script and frame; null (and the policy
 * unchanged) when the deployment has no Turnstile keys.
 */
import type { AstroGlobal } from 'astro';
import { challengeWidget, turnstileConfig, type ChallengeWidget } from '@/server/spam/turnstile';
import { challengeSources } from '@/server/platform/security-policy';

export function pageChallenge(astro: Pick<AstroGlobal, 'csp'>): ChallengeWidget | null {
	const widget = challengeWidget(turnstileConfig());
	if (!widget) return null;
	const sources = challengeSources(widget.origin);
	for (const script of sources.scripts) astro.csp?.insertScriptResource(script);
	astro.csp?.insertDirective(sources.directive);
	return widget;
}
