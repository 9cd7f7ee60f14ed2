import { describe, expect, it } from 'vitest';
import { FetchError, ResponseError } from '@/lib/api-client';
import { mutationErrorKind, postAreaAction, routeErrorAction } from '@/lib/route-errors';
import { retryDelay } from '@/stores/query';

const failure = (resultCode: number) => new ResponseError({ isSuccessful: false, resultCode, resultMessage: '' }, null);
const context = { channelBase: '/starfall/global', currentPath: '/starfall/global/posts/5' };

describe('route-level result codes (SPEC §8)', () => {
	it.each([-4041401, -4041402, -4041403, -4041404, -4041405, -4041406, -4041407, -4041408])('%i shows the not-found page', (code) => {
		expect(routeErrorAction(failure(code), context)).toEqual({ kind: 'not-found' });
	});

	it.each([-4011401, -4011415, -4011411, -4011416, -4011402])('%i with a channel forces login back to the current path', (code) => {
		expect(routeErrorAction(failure(code), context)).toEqual({ kind: 'forced-login', loginUrl: '/starfall/global/login?redirectUrl=%2Fstarfall%2Fglobal%2Fposts%2F5' });
	});

	it('-4011401 without a channel is a not-found page', () => {
		expect(routeErrorAction(failure(-4011401), { currentPath: '/x' })).toEqual({ kind: 'not-found' });
	});

	it('-4031452 opens the ban dialog with its end', () => {
		expect(routeErrorAction(failure(-4031452), { ...context, banEndsAt: 5 })).toEqual({ kind: 'ban', endsAt: 5 });
	});

	it('anything else is the generic error with Retry', () => {
		expect(routeErrorAction(failure(-5001500), context)).toEqual({ kind: 'generic' });
		expect(routeErrorAction(new TypeError('network'), context)).toEqual({ kind: 'generic' });
		expect(routeErrorAction(new FetchError(502, 'Bad Gateway', null), context)).toEqual({ kind: 'generic' });
	});

	it('passes -4011411 up from the post area and treats the rest as post not found', () => {
		expect(postAreaAction(failure(-4011411))).toBe('pass-up');
		expect(postAreaAction(failure(-4041403))).toBe('post-not-found');
	});

	it('maps -4001404 and -4041405 mutation failures to the disabled-category alert', () => {
		expect(mutationErrorKind(failure(-4001404))).toBe('subject-disabled');
		expect(mutationErrorKind(failure(-4041405))).toBe('subject-disabled');
		expect(mutationErrorKind(failure(-4001400))).toBe('generic');
	});
});

describe('read retries (SPEC §9)', () => {
	it('retries a network failure 3 times, doubling from 1 s', () => {
		const error = new TypeError('network');
		expect([1, 2, 3, 4].map((n) => retryDelay(error, n))).toEqual([1000, 2000, 4000, undefined]);
	});

	it('does not retry an answer with a result code', () => {
		expect(retryDelay(failure(-4041403), 1)).toBeUndefined();
	});
});
