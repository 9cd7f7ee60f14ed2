/**
 * Input validation for the API: Hono's validator middleware with a zod schema per target, so a
 * handler reads typed input with `c.req.valid(target)`. A failure answers its field's catalogue
 * code (functions/api/input-codes.ts), else InvalidParameter naming at most the top-level field; a body
 * that is too large, not JSON, or malformed has its own code.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { validator } from 'hono/validator';
import { bodyLimit } from 'hono/body-limit';
import { z } from 'zod';
import { AppError, ResultCodes, type ResultCodeName } from '@/server/platform/errors';
import { fieldCode, type FieldCodes } from '@functions/api/input-codes';
import { IMAGE_MAX_BYTES } from '@/schemas/post-write';
import { AVATAR_MAX_BYTES } from '@/lib/avatars';
import { THUMBNAIL_MAX_BYTES } from '@/lib/thumbnails';

/** The value at `path` inside `value`, or undefined. */
function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
	let current = value;
	for (const segment of path) {
		if (typeof current !== 'object' || current === null || !Object.hasOwn(current, segment)) return undefined;
		current = (current as Record<PropertyKey, unknown>)[segment];
	}
	return current;
}

/** A field name the answer may repeat: a top-level key of the route's schema, never anything else. */
const FIELD_NAME = /^[A-Za-z][A-Za-z0-9]{0,39}$/;

/**
 * The refusal of an input that breaks its schema: the catalogue code of the failing field
 * (functions/api/input-codes.ts) with the catalogue's text; InvalidParameter says at most which
 * top-level field. Never the validator's own words, patterns or deep paths.
 */
function refusalOf(issue: z.core.$ZodIssue | undefined, value: unknown, what: string, fields: Readonly<Record<string, FieldCodes>>): AppError {
	if (!issue) return new AppError('InvalidParameter');
	if (issue.code === 'unrecognized_keys')
		return new AppError('InvalidParameter', `${ResultCodes.InvalidParameter.message.slice(0, -1)}: an unknown field.`);
	const named = issue.code === 'custom' ? (issue.params as { resultCode?: unknown } | undefined)?.resultCode : undefined;
	const kind =
		issue.code === 'too_big'
			? 'tooBig'
			: issue.code === 'invalid_type'
				? valueAt(value, issue.path) === undefined
					? 'missing'
					: 'wrongType'
				: 'invalid';
	const code = typeof named === 'string' && named in ResultCodes ? (named as ResultCodeName) : fieldCode(fields, issue.path, kind);
	if (code !== 'InvalidParameter') return new AppError(code);
	const top = issue.path[0];
	const field = typeof top === 'string' && FIELD_NAME.test(top) ? top : what;
	return new AppError('InvalidParameter', `${ResultCodes.InvalidParameter.message.slice(0, -1)}: ${field}.`);
}

/**
 * Parses `value` with `schema`; a failure is the 4xx of its field's catalogue code (`fields`, from
 * functions/api/input-codes.ts), or InvalidParameter naming the field.
 */
export function parseInput<S extends z.ZodType>(
	schema: S,
	value: unknown,
	what: string,
	fields: Readonly<Record<string, FieldCodes>> = {},
): z.output<S> {
	const result = schema.safeParse(value);
	if (result.success) return result.data;
	throw refusalOf(result.error.issues[0], value, what, fields);
}

/** A query string that must be empty: any key is refused. */
export const NoQuerySchema = z.strictObject({});

/** The largest body the API reads: member requests are small JSON documents and forms. */
const MAX_BODY_BYTES = 16 * 1024;

/** The largest post or draft body: a long post of JSON blocks (the text itself is far less). */
const DOCUMENT_BODY_MAX_BYTES = 512 * 1024;

function bodyLimitOf(maxSize: number, refusal: ResultCodeName): MiddlewareHandler {
	return bodyLimit({
		maxSize,
		onError: () => {
			throw new AppError(refusal);
		},
	});
}

/** Routes that read a larger body than MAX_BODY_BYTES, by the path under /v1/{domain}/{slug}. */
const LARGER_BODIES: readonly { pattern: RegExp; limit: MiddlewareHandler }[] = [
	{ pattern: /^\/(?:posts|drafts)(?:\/[^/]+)?$/, limit: bodyLimitOf(DOCUMENT_BODY_MAX_BYTES, 'PayloadTooLarge') },
	// The image itself plus room for nothing else: uploads are raw bytes, not multipart.
	{ pattern: /^\/uploads$/, limit: bodyLimitOf(IMAGE_MAX_BYTES, 'ImageTooLarge') },
	// An upload's small variant for lists (docs/reference/thumbnails.md).
	{ pattern: /^\/uploads\/[^/]+\/thumbnail$/, limit: bodyLimitOf(THUMBNAIL_MAX_BYTES, 'ThumbnailTooLarge') },
	// One size of a member's avatar, made by the browser's crop (docs/reference/avatars.md).
	{ pattern: /^\/me\/avatar$/, limit: bodyLimitOf(AVATAR_MAX_BYTES, 'PayloadTooLarge') },
];

const DEFAULT_LIMIT = bodyLimitOf(MAX_BODY_BYTES, 'PayloadTooLarge');

/**
 * Refuses a body over its route's limit (MAX_BODY_BYTES unless LARGER_BODIES names the route)
 * before it is buffered: by its Content-Length, or while a body without one is read.
 */
export const limitBody: MiddlewareHandler = (c, next) => {
	const { domain, slug } = c.req.param() as { domain?: string; slug?: string };
	const prefix = c.req.path.indexOf(`/${domain}/${slug}`);
	const rest = prefix < 0 ? c.req.path : c.req.path.slice(prefix + `/${domain}/${slug}`.length);
	const limit = LARGER_BODIES.find(({ pattern }) => pattern.test(rest))?.limit ?? DEFAULT_LIMIT;
	return limit(c, next);
};

const JSON_TYPE = /^application\/json\s*(?:;|$)/i;
const FORM_TYPE = /^application\/x-www-form-urlencoded\s*(?:;|$)/i;

export function isFormRequest(c: Context): boolean {
	return FORM_TYPE.test(c.req.header('content-type') ?? '');
}

/** The JSON body, or the error that says why there is none. */
async function jsonOf(c: Context): Promise<unknown> {
	if (!JSON_TYPE.test(c.req.header('content-type') ?? '')) throw new AppError('UnsupportedMediaType');
	try {
		return JSON.parse(await c.req.text());
	} catch {
		throw new AppError('MalformedBody');
	}
}

/** Validates the query string or the path parameters with `schema`; the result is `c.req.valid(target)`. */
export function zv<T extends 'query' | 'param', S extends z.ZodType>(target: T, schema: S) {
	return validator(target, (value): z.output<S> => parseInput(schema, value, target === 'param' ? 'path' : 'query'));
}

/**
 * Validates a JSON body with `schema` (415 unless it is JSON, MalformedBody when it does not parse);
 * `fields` names the catalogue code of each field's failure (functions/api/input-codes.ts).
 */
export function zvJson<S extends z.ZodType>(schema: S, fields: Readonly<Record<string, FieldCodes>> = {}) {
	return validator('json', async (_value, c): Promise<z.output<S>> => parseInput(schema, await jsonOf(c), 'body', fields));
}

/** Validates a body sent as JSON or as a plain HTML form (application/x-www-form-urlencoded). */
export function zvJsonOrForm<S extends z.ZodType>(schema: S, fields: Readonly<Record<string, FieldCodes>> = {}) {
	return validator('json', async (_value, c): Promise<z.output<S>> => {
		const value = isFormRequest(c) ? Object.fromEntries(new URLSearchParams(await c.req.text())) : await jsonOf(c);
		return parseInput(schema, value, 'body', fields);
	});
}
