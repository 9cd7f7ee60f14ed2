/** Turns thrown errors into the envelope: AppError by its code, anything else logged as Internal. */
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { AppError, ResultCodes } from '@/server/platform/errors';
import { failure } from '@/server/platform/envelope';

export function errorResponse(error: unknown, c: Context): Response {
	if (error instanceof AppError) {
		// A refusal that ends at a known time (a rate limit, the nickname cooldown) says when.
		const retryAfter = error.details?.['retryAfter'];
		if (typeof retryAfter === 'number') c.header('Retry-After', String(Math.max(1, retryAfter)));
		return c.json(failure(error.def.code, error.message, error.details ?? {}), error.def.status);
	}
	// Hono's JSON validator parses a JSON body before our schema sees it, and says 400 when it cannot.
	if (error instanceof HTTPException && error.status === 400) {
		const def = ResultCodes.MalformedBody;
		return c.json(failure(def.code, def.message), def.status);
	}
	console.error('Unhandled API error', c.req.method, c.req.path, error);
	const def = ResultCodes.Internal;
	return c.json(failure(def.code, def.message), def.status);
}

export function routeNotFound(c: Context): Response {
	const def = ResultCodes.RouteNotFound;
	return c.json(failure(def.code, def.message), def.status);
}

export function methodNotAllowed(c: Context): Response {
	const def = ResultCodes.MethodNotAllowed;
	return c.json(failure(def.code, def.message), def.status);
}
