/**
 * The workers tests' global setup: the local Turnstile stand-in (scripts/turnstile/server.mjs) on a
 * free port of this machine, which the tests inside workerd reach over HTTP as the Worker reaches
 * Cloudflare's siteverify. Its address and keys are given to the tests (`inject('turnstile')`).
 */
import type { TestProject } from 'vitest/node';
import { startTurnstile } from '../../scripts/turnstile/server.mjs';

declare module 'vitest' {
	export interface ProvidedContext {
		turnstile: { origin: string; vars: Record<string, string> };
	}
}

export default async function setup(project: TestProject) {
	const turnstile = (await startTurnstile({ port: 0 })) as { origin: string; vars: Record<string, string>; close: () => Promise<void> };
	project.provide('turnstile', { origin: turnstile.origin, vars: turnstile.vars });
	return () => turnstile.close();
}
