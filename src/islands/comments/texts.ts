import { SPAM_TEXT_KEYS } from '@/lib/spam-failure';
/** The texts the comments need, resolved on the server: the page's markup and the island's props alike. */
export const COMMENT_TEXT_KEYS = [
	...SPAM_TEXT_KEYS,
	'post.comments',
	'post.noComments',
	'post.reply',
	'comment.deleted',
	'comment.hidden',
	'comment.hiddenForAdmin',
	'comment.hiddenByReports',
	'comment.hiddenByReportsForAdmin',
	'comment.write.label',
	'comment.write.placeholder',
	'comment.write.guestPlaceholder',
	'comment.button.post',
	'comment.button.save',
	'comment.reply.label',
	'comment.edit.label',
	'comment.length',
	'comment.menu.label',
	'comment.menu.copyLink',
	'comment.menu.report',
	'comment.menu.edit',
	'comment.menu.delete',
	'comment.message.posted',
	'comment.message.edited',
	'comment.message.deleted',
	'comment.message.copied',
	'comment.message.required',
	'comment.message.tooLong',
	'comment.message.editing',
	'comment.confirm.delete',
	'comment.menu.hide',
	'comment.menu.unhide',
	'comment.message.hidden',
	'comment.message.shown',
	'admin.confirm.hideCOMMENT',
	'admin.confirm.unhideCOMMENT',
	'admin.reason',
	'comment.more',
	'comment.viewAll',
	'common.edited',
	'common.adminBadge',
	'common.withdrawnMember',
	'common.button.cancel',
	'common.button.confirm',
	'common.message.alert',
	'common.message.error',
	'common.message.tooManyRequests',
	'common.message.offline',
	'common.message.offlineTitle',
	'comment.failed.title',
	'write.confirm.title',
] as const;

export type CommentTextKey = (typeof COMMENT_TEXT_KEYS)[number];
export type CommentTexts = Record<CommentTextKey, string>;

/** A text with its `{{name}}` placeholders filled. */
export function fill(text: string, values: Record<string, string | number>): string {
	return text.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}
