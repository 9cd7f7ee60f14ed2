/**
 * What a notification says (docs/reference/notifications.md#kinds), one home for the notifications page and
 * the push messages: the kind's sentence in the channel's language, with the member who did it,
 * and a like's count of others by the language's plural rules.
 */
import type { MessageKey, Translate } from '@/i18n';
import type { Language } from '@/schemas/channel';
import type { NotificationKind } from '@/lib/notification-kinds';
import { formatFullDate } from '@/lib/format-date';
import { pluralForm } from '@/lib/plural';

export interface NotificationFacts {
	kind: NotificationKind;
	/** The member who did it: a nickname, null for a withdrawn member; undefined when nobody is named. */
	actor: string | null | undefined;
	/** A like: how many others like the post. */
	others: number;
	/** A hide or show: whether it was about a comment. */
	target: 'POST' | 'COMMENT' | null;
	/** A ban: its end. */
	endsAt: number | null;
	/**
	 * A mention in a comment that also answers the recipient: a reply to their comment, or a comment
	 * on their post. It is their one notification of that comment (deliver.ts), so it says both.
	 */
	mentionIn?: MentionContext;
	/** A hide: the community's automatic hide did it (after reports from members), not an administrator. */
	automatic?: boolean;
}

/** What a comment that mentions the recipient also is to them (mentionInSql in notifications.ts). */
export type MentionContext = 'REPLY' | 'POST' | null;

export function notificationSentence(facts: NotificationFacts, t: Translate, language: Language): string {
	const actor = facts.actor === undefined ? t('notifications.someone') : (facts.actor ?? t('common.withdrawnMember'));
	switch (facts.kind) {
		case 'LIKE': {
			if (facts.others <= 0) return t('notifications.kind.LIKE', { actor });
			return t(`notifications.kind.LIKE.others.${pluralForm(language, facts.others)}`, { actor, count: facts.others });
		}
		case 'HIDDEN':
		case 'SHOWN': {
			const key = `notifications.kind.${facts.kind}.${facts.target === 'COMMENT' ? 'comment' : 'post'}`;
			return t((facts.kind === 'HIDDEN' && facts.automatic === true ? `${key}.automatic` : key) as MessageKey);
		}
		case 'MENTION':
			if (facts.mentionIn === 'REPLY') return t('notifications.kind.MENTION.reply', { actor });
			if (facts.mentionIn === 'POST') return t('notifications.kind.MENTION.post', { actor });
			return t('notifications.kind.MENTION', { actor });
		case 'BAN':
			return t('notifications.kind.BAN', { date: formatFullDate(facts.endsAt ?? 0, language) });
		default:
			return t(`notifications.kind.${facts.kind}`, { actor });
	}
}

/** Where a notification leads: the post, opened at the comment; null for a ban's. */
export function notificationPath(channelBase: string, postId: number | null, commentId: number | null): string | null {
	if (postId === null) return null;
	const post = `${channelBase}/posts/${postId}`;
	return commentId === null ? post : `${post}?commentId=${commentId}#comment-${commentId}`;
}
