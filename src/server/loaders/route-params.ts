/** Checks route parameters before they are put into a redirect's Location. */
import { IdSchema, channelPathOf } from '@/schemas/params';
import { channelPath } from '@/lib/urls';

/** The channel's base path from valid {domain}/{slug} parameters, or null. */
export function channelBase(params: Record<string, string | undefined>): string | null {
	const path = channelPathOf({ domain: params['domain'], slug: params['slug'] });
	return path ? channelPath(path) : null;
}

/** A valid id parameter, or null. */
export function idParam(value: string | undefined): number | null {
	const parsed = IdSchema.safeParse(value);
	return parsed.success ? parsed.data : null;
}
