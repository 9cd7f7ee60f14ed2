/** Input validation for the API: zod schemas in, AppError InvalidParameter out, naming the field. */
import { z } from 'zod';
import { AppError } from '../src/server/errors';

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
