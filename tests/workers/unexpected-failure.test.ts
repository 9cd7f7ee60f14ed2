/**
 * The Worker's last wall (functions/shell/unexpected-failure.ts): what no other part caught is answered
 * in the API's envelope or as the generic error page, with the security headers, never cached.
 */
import { describe, expect, it, vi } from 'vitest';
import { guarded } from '@functions/shell/unexpected-failure';
import { STRICT_POLICY } from '@/server/platform/security-policy';
import workerSource from '../../functions/shell/worker.ts?raw';

const broken = () => Promise.reject(new Error('D1_ERROR: storage unavailable'));

describe('an exception that escapes the Worker', () => {
	it('is the Internal envelope on the API’s paths, with the security headers and no caching', async () => {
		const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
		for (const path of ['/v1/starfall/global/posts', '/public/v1/starfall/global/boards', '/admin/v1/starfall/global/reports']) {
			const response = await guarded(new Request(`https://board.example${path}`, { method: 'POST' }), broken);
			expect(response.status, path).toBe(500);
			expect(await response.json()).toEqual({
				header: { isSuccessful: false, resultCode: -5001500, resultMessage: expect.stringContaining('try again later') },
			});
			expect(response.headers.get('cache-control')).toBe('no-store');
			expect(response.headers.get('content-security-policy')).toBe(STRICT_POLICY);
			expect(response.headers.get('x-content-type-options')).toBe('nosniff');
		}
		expect(quiet).toHaveBeenCalledWith('Unhandled Worker error', 'POST', '/admin/v1/starfall/global/reports', expect.any(Error));
		quiet.mockRestore();
	});

	it('is the generic error page elsewhere, its Retry link escaped, nothing for the page to load', async () => {
		const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
		const response = await guarded(new Request('https://board.example/starfall/global/posts/5?q="><script>alert(1)</script>'), broken);
		quiet.mockRestore();
		expect(response.status).toBe(500);
		expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
		expect(response.headers.get('cache-control')).toBe('no-store');
		expect(response.headers.get('content-security-policy')).toBe(STRICT_POLICY);
		const html = await response.text();
		expect(html).toContain('<h1>Something went wrong</h1><p>Please try again</p>');
		expect(html).not.toContain('<script');
		expect(html).toMatch(/<a href="\/starfall\/global\/posts\/5\?q=[^"]*">Retry<\/a>/);
	});

	it('leaves every other answer as it was', async () => {
		const answer = new Response('fine', { status: 201 });
		expect(await guarded(new Request('https://board.example/'), async () => answer)).toBe(answer);
	});

	it('is the wall around everything the Worker’s fetch does', () => {
		expect(workerSource).toMatch(
			/fetch\(request, env, ctx\) \{\n\t\treturn guarded\(request, \(\) => countRoundTrips\(async \(trips\) => withRoundTrips\(await answer\(request, env, ctx\), trips\)\)\);/,
		);
	});
});
