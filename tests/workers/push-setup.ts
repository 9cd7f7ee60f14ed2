/**
 * The workers tests' global setup for Web Push: the local push service stand-in
 * (scripts/push/server.mjs) on a free port of this machine, which the tests inside workerd reach
 * over HTTP as the Worker reaches a browser vendor's push service, and two VAPID key pairs in the
 * formats of VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY: the deployment's, and another one a push must
 * not pass with (`inject('push')`).
 */
import type { TestProject } from 'vitest/node';
import { generateVapidKeys, startPushService } from '../../scripts/push/server.mjs';

interface ProvidedVapidKeys {
	publicKey: string;
	privateKey: string;
	subject: string;
}

declare module 'vitest' {
	export interface ProvidedContext {
		push: { origin: string; vapid: ProvidedVapidKeys; otherVapid: ProvidedVapidKeys };
	}
}

export default async function setup(project: TestProject) {
	const push = (await startPushService({ port: 0 })) as { origin: string; close: () => Promise<void> };
	const subject = 'mailto:push-tests@example.com';
	project.provide('push', { origin: push.origin, vapid: { ...generateVapidKeys(), subject }, otherVapid: { ...generateVapidKeys(), subject } });
	return () => push.close();
}
