/**
 * Limits for new members (docs/reference/spam-defence.md), after Discourse's new-user
 * limits and NodeBB's posting delays: for `periodHours` after joining a community, a member (not an
 * administrator) may put at most `maxLinks` links and `maxMentions` @mentions in a post or comment,
 * `maxImages` images and videos in a post, and write at most `maxPosts` posts and `maxComments`
 * comments in the whole period. A community file sets them (`newMembers`, channel-file.ts); a
 * community that never set them has the defaults below.
 *
 * The content limits count what the renderers show: the addresses the comment renderer cuts out
 * and a post's inline links, and the mentions resolved for the text; the post and comment counts by an
 * assertion in the write's own batch over the member's index (posts_by_member, comments_by_member),
 * reading at most the limit's entries however much the member wrote.
 */
import { isAdmin } from '@/lib/roles';
import { z } from 'zod';
import { AppError } from '@/server/platform/errors';
import { assertion } from '@/server/platform/batch';
import type { SessionMember } from '@/server/sign-in/sessions';
import type { ContentDocument, Inline } from '@/schemas/content';
import { writtenAddresses } from '@/lib/comment-text';
import type { Mention } from '@/lib/mentions';

const Count = (max: number) => z.number().int().min(0).max(max);

/** The community file's `newMembers` (every field optional, with Discourse-like defaults). */
export const NewMemberLimitsSchema = z.strictObject({
	/** How long a member counts as new, in hours from joining; 0 turns every limit here off. */
	periodHours: Count(24 * 90).default(24),
	/** Links (distinct addresses) in one post or comment. Discourse: newuser_max_links 2. */
	maxLinks: Count(100).default(2),
	/** Image and video blocks in one post. Discourse: newuser_max_embedded_media 1. */
	maxImages: Count(100).default(1),
	/** Distinct @nicknames in one post or comment. Discourse: newuser_max_mentions_per_post 2. */
	maxMentions: Count(100).default(2),
	/** Posts in the whole new-member period, deleted ones included. */
	maxPosts: Count(1000).default(3),
	/** Comments in the whole new-member period, deleted ones included. */
	maxComments: Count(10_000).default(20),
});

export type NewMemberLimits = z.output<typeof NewMemberLimitsSchema>;

export const DEFAULT_NEW_MEMBER_LIMITS: NewMemberLimits = NewMemberLimitsSchema.parse({});

/** channels.new_member_limits as stored (JSON of the file's section, or NULL for the defaults); anything unreadable is the defaults. */
export function parseNewMemberLimits(json: string | null): NewMemberLimits {
	if (json === null) return DEFAULT_NEW_MEMBER_LIMITS;
	try {
		return NewMemberLimitsSchema.safeParse(JSON.parse(json)).data ?? DEFAULT_NEW_MEMBER_LIMITS;
	} catch {
		return DEFAULT_NEW_MEMBER_LIMITS;
	}
}

/** Whether the limits apply to `member` at `now`: a member, not an administrator, within the period from joining. */
export function isNewMember(member: Pick<SessionMember, 'role' | 'joinedAt'>, limits: NewMemberLimits, now: number): boolean {
	return !isAdmin(member) && now - member.joinedAt < limits.periodHours * 3_600_000;
}

/**
 * The distinct links of `texts` and `linkTargets` (a post's inline links): every address the
 * comment renderer cuts out of a text (src/lib/comment-text.ts writtenAddresses), whether it becomes
 * a link there or stays text (an http:// one), so that the count ends an address exactly where the
 * rendering does.
 */
export function linkCount(texts: readonly string[], linkTargets: readonly string[] = []): number {
	const links = new Set(linkTargets.map((target) => target.toLowerCase()));
	for (const text of texts) for (const { address } of writtenAddresses(text)) links.add(address.toLowerCase());
	return links.size;
}

function inlinesOf(doc: ContentDocument): Inline[] {
	return doc.blocks.flatMap((block) => {
		switch (block.type) {
			case 'paragraph':
			case 'heading':
			case 'quote':
				return block.children;
			case 'list':
				return block.items.flat();
			default:
				return [];
		}
	});
}

/**
 * The links counted above and the members `mentions` names: the mentions the server resolved for
 * the text (src/server/notifications/mentions.ts), the very list the renderers link
 * (src/lib/mentions.ts mentionSegments) and notify, counted once per member.
 * @throws AppError NewMemberTooManyLinks, NewMemberTooManyMentions with the limit in `details.limit`
 */
function checkCounted(links: number, mentions: readonly Mention[], limits: NewMemberLimits): void {
	if (links > limits.maxLinks) throw new AppError('NewMemberTooManyLinks', undefined, { limit: limits.maxLinks });
	if (new Set(mentions.map((mention) => mention.userId)).size > limits.maxMentions)
		throw new AppError('NewMemberTooManyMentions', undefined, { limit: limits.maxMentions });
}

/**
 * A new member's post body against the limits (nothing for anyone else), with the members it
 * mentions as resolved for it.
 * @throws AppError NewMemberTooManyLinks, NewMemberTooManyImages, NewMemberTooManyMentions
 */
export function checkNewMemberPost(
	member: SessionMember,
	limits: NewMemberLimits,
	now: number,
	post: { title: string; doc: ContentDocument; mentions: readonly Mention[] },
): void {
	const { title, doc } = post;
	if (!isNewMember(member, limits, now)) return;
	const inlines = inlinesOf(doc);
	const linkTargets = inlines.flatMap((inline) => (inline.link === undefined ? [] : [inline.link]));
	// Text split by inline runs is joined first, so that an address across two runs counts once.
	const texts = [
		title,
		...doc.blocks.map((block) =>
			block.type === 'list'
				? block.items.map((item) => item.map((inline) => inline.text).join('')).join('\n')
				: 'children' in block
					? block.children.map((inline) => inline.text).join('')
					: '',
		),
	];
	const media = doc.blocks.filter((block) => block.type === 'image' || block.type === 'youtube').length;
	if (media > limits.maxImages) throw new AppError('NewMemberTooManyImages', undefined, { limit: limits.maxImages });
	checkCounted(linkCount(texts, linkTargets), post.mentions, limits);
}

/**
 * A new member's comment text against the limits, with the members it mentions as resolved for it.
 * @throws AppError NewMemberTooManyLinks, NewMemberTooManyMentions
 */
export function checkNewMemberComment(member: SessionMember, limits: NewMemberLimits, now: number, text: string, mentions: readonly Mention[]): void {
	if (!isNewMember(member, limits, now)) return;
	checkCounted(linkCount([text]), mentions, limits);
}

/**
 * The statement that fails its batch when the member already has `limit` rows in `table`: a count
 * of at most `limit` entries of the member's index (a member belongs to one community). With
 * `requestId`, it holds too when the member's row of that request exists (a write sent twice at
 * once, whose other request wrote it: the batch then changes nothing and answers that row).
 */
export function writeCountGuard(db: Db, table: 'posts' | 'comments', memberId: number, limit: number, requestId?: string): D1PreparedStatement {
	const count = `(SELECT count(*) FROM (SELECT 1 FROM ${table} WHERE member_id = ?1 LIMIT ?2)) < ?2`;
	if (requestId === undefined) return assertion(db, count, memberId, limit);
	return assertion(db, `${count} OR EXISTS (SELECT 1 FROM ${table} WHERE member_id = ?1 AND request_id = ?3)`, memberId, limit, requestId);
}
