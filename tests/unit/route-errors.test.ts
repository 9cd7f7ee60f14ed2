import { describe, expect, it } from 'vitest';
import { FetchError, ResponseError } from '@/lib/api-client';
import { memberFailure, mutationErrorKind, postAreaAction, routeErrorAction } from '@/lib/route-errors';
import { failureMeaning as commentFailure } from '@/islands/comments/api';
import { failureMeaning as writeFailure } from '@/islands/write/api';

const failure = (resultCode: number) => new ResponseError({ isSuccessful: false, resultCode, resultMessage: '' }, null);
const context = { channelBase: '/starfall/global', currentPath: '/starfall/global/posts/5' };

describe('route-level result codes (docs/reference/product-rules.md#errors-and-texts)', () => {
	it.each([-4041401, -4041402, -4041403, -4041404, -4041405, -4041406, -4041407, -4041408])('%i shows the not-found page', (code) => {
		expect(routeErrorAction(failure(code), context)).toEqual({ kind: 'not-found' });
	});

	it.each([-4011401, -4011415, -4011411, -4011416, -4011402])('%i with a channel forces login back to the current path', (code) => {
		expect(routeErrorAction(failure(code), context)).toEqual({
			kind: 'forced-login',
			loginUrl: '/starfall/global/login?redirectUrl=%2Fstarfall%2Fglobal%2Fposts%2F5',
		});
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

describe("what a member action's failure means, whatever the action", () => {
	const base = '/starfall/global';
	const back = '/starfall/global/posts/7';
	const banned = new FetchError(403, 'Forbidden', {
		header: { isSuccessful: false, resultCode: -4031452, resultMessage: '' },
		ban: { kind: 'TEMPORARY', endsAt: 1_800_000_000_000 },
	});

	it('is the forced login, the ban dialog with its end, or too many requests; null leaves the rest to the action', () => {
		expect(memberFailure(failure(-4011415), base, back)).toEqual({
			kind: 'forced-login',
			loginUrl: '/starfall/global/login?redirectUrl=%2Fstarfall%2Fglobal%2Fposts%2F7',
		});
		expect(memberFailure(banned, base, back)).toEqual({ kind: 'ban', endsAt: 1_800_000_000_000 });
		expect(memberFailure(failure(-4031452), base, back)).toEqual({ kind: 'ban', endsAt: null });
		expect(memberFailure(failure(-4291401), base, back)).toEqual({ kind: 'too-many' });
		for (const code of [-4001451, -4001401, -4041403, -5001500]) expect(memberFailure(failure(code), base, back), String(code)).toBeNull();
		expect(memberFailure(new TypeError('network'), base, back)).toBeNull();
	});

	it('means the same in the comments and the write islands for those failures', () => {
		for (const error of [failure(-4011415), failure(-4011402), banned, failure(-4291401), failure(-5001500), new TypeError('network')]) {
			expect(commentFailure(error, base, back)).toEqual(writeFailure(error, base, back));
		}
	});
});
