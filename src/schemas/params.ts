/** Path and query parameters shared by the API and the pages. */
import './zod-config';
import { z } from 'zod';

/** A channel's domain or slug: lower-case letters, digits, dots and hyphens. */
export const PathSegmentSchema = z
	.string()
	.min(1)
	.max(63)
	.regex(/^[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?$/, 'must be lower-case letters, digits, dots or hyphens');

/**
 * Top-level path segments that are never a channel's domain: the API prefixes and the folders of
 * static files. A channel called `v1` would be shadowed by the member API.
 */
const RESERVED_DOMAINS: ReadonlySet<string> = new Set(['public', 'v1', 'admin', 'api', 'demo', 'assets', 'static', 'uploads']);

/** A channel's domain: a path segment that is not reserved. */
export const DomainSchema = PathSegmentSchema.refine((value) => !RESERVED_DOMAINS.has(value), 'is reserved');

export const ChannelPathSchema = z.object({ domain: DomainSchema, slug: PathSegmentSchema });
export type ChannelPath = z.infer<typeof ChannelPathSchema>;

/** The channel that path parameters {domain}/{slug} name, or null when they name none. */
export function channelPathOf(params: { domain?: string | undefined; slug?: string | undefined }): ChannelPath | null {
	const parsed = ChannelPathSchema.safeParse({ domain: params.domain, slug: params.slug });
	return parsed.success ? parsed.data : null;
}

const ID_PATTERN = /^[1-9][0-9]{0,15}$/;

/** A positive database id given as a decimal string; ids beyond 2^53 are refused, not rounded. */
export const IdSchema = z
	.string()
	.regex(ID_PATTERN, 'must be a positive whole number')
	.transform(Number)
	.refine(Number.isSafeInteger, 'is too large');

/** IdSchema's rule without a validator's machinery, for the ids a page reads from its URL on every request: the id, or null. */
export function parseId(text: string | null | undefined): number | null {
	if (text === null || text === undefined || !ID_PATTERN.test(text)) return null;
	const id = Number(text);
	return Number.isSafeInteger(id) ? id : null;
}

/** The list page: defaults to 1; anything that is not a positive whole number is refused. */
export const PageSchema = z
	.string()
	.regex(/^[1-9][0-9]{0,5}$/, 'must be a whole number from 1 to 999999')
	.transform(Number);

export const PAGE_SIZE = 20;

/**
 * Reads a list page from a query string value the way pages do: missing, zero, negative or
 * non-numeric gives page 1, so a mistyped link still shows the list.
 */
export function lenientPage(raw: string | null | undefined): number {
	const parsed = PageSchema.safeParse(raw ?? '');
	return parsed.success ? parsed.data : 1;
}
