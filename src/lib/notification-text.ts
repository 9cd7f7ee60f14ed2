/**
 * What a notification says (docs/notifications.md#kinds), one home for the notifications page and
 * the push messages: the kind's sentence in the channel's language, with the member who did it,
 * and a like's count of others by the language's plural rules.
 */
import type { MessageKey, Translate } from '@/i18n';
import type { Language } from '@/schemas/channel';
import type { NotificationKind } from './notification-kinds';
import { formatFullDate } from './format-date';

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
}

export function notificationSentence(facts: NotificationFacts, t: Translate, language: Language): string {
	const actor = facts.actor === undefined ? t('notifications.someone') : (facts.actor ?? t('common.withdrawnMember'));
	switch (facts.kind) {
		case 'LIKE': {
			if (facts.others <= 0) return t('notifications.kind.LIKE', { actor });
			const rule = new Intl.PluralRules(language === 'zh' ? 'zh-TW' : language).select(facts.others);
			return t(`notifications.kind.LIKE.others.${rule === 'one' ? 'one' : 'other'}`, { actor, count: facts.others });
		}
		case 'HIDDEN':
		case 'SHOWN':
			return t(`notifications.kind.${facts.kind}.${facts.target === 'COMMENT' ? 'comment' : 'post'}` as MessageKey);
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
