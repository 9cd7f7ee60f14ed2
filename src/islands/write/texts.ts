import { SPAM_TEXT_KEYS } from '@/lib/spam-failure';
/** The texts the write screen's islands need, resolved on the server and passed as props. */
export const WRITE_TEXT_KEYS = [
	...SPAM_TEXT_KEYS,
	'spam.challengeWaitPost',
	'common.button.cancel',
	'common.button.confirm',
	'common.message.alert',
	'common.message.error',
	'common.message.tooManyRequests',
	'board.category.none',
	'pagination.prev',
	'pagination.next',
	'write.field.board',
	'write.field.category',
	'write.field.title',
	'write.field.titlePlaceholder',
	'write.field.body',
	'write.field.private',
	'write.field.privateHint',
	'write.field.notice',
	'write.field.noticeHint',
	'write.message.titleTooLong',
	'write.message.titleRequired',
	'write.message.contentRequired',
	'write.message.tooManyImages',
	'write.message.boardRequired',
	'write.message.noCategory',
	'write.message.noBoards',
	'write.message.subjectDisabled',
	'write.message.postChanged',
	'write.message.writeFailed',
	'write.message.editFailed',
	'write.failed.writeTitle',
	'write.failed.editTitle',
	'common.message.offline',
	'common.message.offlineTitle',
	'write.message.edited',
	'write.message.published',
	'write.button.leave',
	'write.button.useTemplate',
	'write.button.submit',
	'write.button.save',
	'write.button.reload',
	'write.confirm.title',
	'write.confirm.cancel',
	'write.emptySections.title',
	'write.emptySections.message',
	'write.button.publishAnyway',
	'write.button.saveAnyway',
	'write.button.goBack',
	'write.confirm.template',
	'write.confirm.loadDraft',
	'write.button.saveDraft',
	'write.message.draftSaved',
	'write.message.draftFailed',
	'write.message.draftLimit',
	'write.button.drafts',
	'write.drafts.title',
	'write.drafts.empty',
	'write.drafts.untitled',
	'write.drafts.load',
	'write.drafts.delete',
	'write.drafts.confirmDelete',
	'write.drafts.failed',
	'write.drafts.close',
	'write.restore.message',
	'write.restore.restore',
	'write.restore.discard',
] as const;

export type WriteTexts = Record<(typeof WRITE_TEXT_KEYS)[number], string>;

/** The texts of the post page's Delete button. */
export const POST_ACTION_TEXT_KEYS = [
	'write.post.edit',
	'write.post.delete',
	'write.post.confirmDelete',
	'write.post.deleted',
	'write.post.deleteFailed',
	'write.confirm.title',
	'common.button.cancel',
	'common.button.confirm',
	'common.message.alert',
	'common.message.tooManyRequests',
] as const;

export type PostActionTexts = Record<(typeof POST_ACTION_TEXT_KEYS)[number], string>;

/**
 * The texts that name the upload and image limits, filled in on the server with
 * UPLOAD_LIMIT_LABELS of src/schemas/post-limits.ts, so that no label reaches the browser's bundle.
 */
export const LIMIT_TEXT_KEYS = [
	'write.message.tooManyImages',
	'editor.message.imageResolution',
	'editor.message.uploadDailyLimit',
	'editor.message.unattachedLimit',
] as const;
