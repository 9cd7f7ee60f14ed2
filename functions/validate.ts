/** Input validation for the API: zod schemas in, AppError InvalidParameter out, naming the field. */
import type { Context } from 'hono';
import { z } from 'zod';
import { AppError } from '@/server/platform/errors';

/** Parses `value` with `schema`; a failure becomes a 400 envelope that says which field and why. */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
	const result = schema.safeParse(value);
	if (result.success) return result.data;
	const issue = result.error.issues[0];
	const path = issue?.path.length ? issue.path.join('.') : what;
	const reason = issue?.code === 'unrecognized_keys' ? `unknown ${what} key ${issue.keys.map((k) => `'${k}'`).join(', ')}` : `${path} ${issue?.message ?? 'is invalid'}`;
	throw new AppError('InvalidParameter', `The request has an invalid parameter: ${reason}.`);
}

/** A query string that must be empty: any key is refused by name. */
export const NoQuerySchema = z.strictObject({});

/** The largest JSON body the API reads; member requests are small forms. */
const MAX_JSON_BYTES = 16 * 1024;

/**
 * Reads a JSON request body and parses it with `schema`.
 * @throws AppError UnsupportedMediaType, PayloadTooLarge, MalformedBody or InvalidParameter
 */
export async function readJsonBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.output<S>> {
	if (!/^application\/json\s*(?:;|$)/i.test(c.req.header('content-type') ?? '')) throw new AppError('UnsupportedMediaType');
	if (Number(c.req.header('content-length') ?? 0) > MAX_JSON_BYTES) throw new AppError('PayloadTooLarge');
	const text = await c.req.text();
	if (new TextEncoder().encode(text).byteLength > MAX_JSON_BYTES) throw new AppError('PayloadTooLarge');
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch {
		throw new AppError('MalformedBody');
	}
	return parseInput(schema, value, 'body');
}
