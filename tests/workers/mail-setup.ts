/**
 * The workers tests' global setup for email: the local mail stand-in (scripts/mail/server.mjs) on a
 * free port of this machine, which the Worker inside workerd reaches over HTTP as it would reach a
 * transactional-mail API. Its address and the Worker's variables that point at it are given to the
 * tests and to vitest.config.ts's miniflare bindings (`inject('mail')`).
 */
import type { TestProject } from 'vitest/node';
import { startMailCapture } from '../../scripts/mail/server.mjs';

declare module 'vitest' {
	export interface ProvidedContext {
		mail: { origin: string; vars: Record<string, string> };
	}
}

export default async function setup(project: TestProject) {
	const mail = (await startMailCapture({ port: 0 })) as { origin: string; vars: Record<string, string>; close: () => Promise<void> };
	project.provide('mail', { origin: mail.origin, vars: mail.vars });
	return () => mail.close();
}
