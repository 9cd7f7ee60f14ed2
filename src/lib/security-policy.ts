/**
 * The site's security policies. Every community shares one origin, so a script injected into one
 * could act in all of them: the policy is the second wall behind escaping.
 */

/** The CSP source that allows exactly this inline script or style text: `sha256-<base64>`. */
export async function cspHash(text: string): Promise<`sha256-${string}`> {
	const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
	let binary = '';
	for (const byte of digest) binary += String.fromCharCode(byte);
	return `sha256-${btoa(binary)}`;
}
