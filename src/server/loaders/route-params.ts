/** Checks route parameters before they are put into a redirect's Location. */
import { IdSchema, PathSegmentSchema } from '@/schemas/params';

/** The channel's base path from valid {domain}/{slug} parameters, or null. */
export function channelBase(params: Record<string, string | undefined>): string | null {
	const domain = PathSegmentSchema.safeParse(params['domain']);
	const slug = PathSegmentSchema.safeParse(params['slug']);
	return domain.success && slug.success ? `/${domain.data}/${slug.data}` : null;
}

/** A valid id parameter, or null. */
export function idParam(value: string | undefined): number | null {
	const parsed = IdSchema.safeParse(value);
	return parsed.success ? parsed.data : null;
}
