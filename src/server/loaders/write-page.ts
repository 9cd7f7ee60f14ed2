/**
 * What the write and edit screens load: the member, the boards they may write in (with categories
 * and templates), the board to start in and, for an edit, the post's stored fields and version.
 */
import { isAdmin } from '@/lib/roles';
import type { AstroGlobal } from 'astro';
import { isSignedIn, loadChannelPage, loginRedirect, type ChannelPage } from './channel-page';
import { writableBoardsOf, writableBoardsRead, type WritableBoard } from '@/server/boards/writable';
import { editablePostOf, editablePostStatement } from '@/server/posts/writing';
import { draftRead } from '@/server/drafts/drafts';
import { read } from '@/server/platform/reads';
import { AppError, isAppError } from '@/server/platform/errors';
import type { SessionMember } from '@/server/sign-in/sessions';
import type { OpeningFields } from '@/schemas/post-write';
import { IdSchema } from '@/schemas/params';
import { isNewMember } from '@/server/spam/new-members';
import { withSectionLines } from '@/schemas/template-sections';
import { pageChallenge } from './challenge';
import type { ChallengeWidget } from '@/server/spam/turnstile';

export type WriteScreen =
	| {
			kind: 'form';
			page: ChannelPage;
			member: SessionMember;
			admin: boolean;
			boards: WritableBoard[];
			/** The form's fields as the screen opens. */
			fields: OpeningFields;
			edit: { postId: number; version: number } | null;
			/** The draft the screen opened with (`?draftId=`, from My Page's drafts): saving a draft overwrites it. */
			draftId?: number;
			/** The Turnstile widget a new member passes before posting (docs/reference/spam-defence.md); none for an edit or anyone else. */
			challenge?: ChallengeWidget | null;
			/** How many images and videos a new member's post may show (docs/reference/uploads.md); null for anyone else. */
			mediaLimit: number | null;
	  }
	/** A banned member: the layout's ban dialog covers the page, and no form is shown. */
	| { kind: 'banned'; page: ChannelPage }
	/** No such post (or deleted, or another channel's), or not the reader's to edit. */
	| { kind: 'refused'; page: ChannelPage; status: 403 | 404 };

type Astro = Pick<AstroGlobal, 'params' | 'request' | 'response' | 'locals' | 'csp' | 'url' | 'redirect' | 'rewrite'>;

/**
 * Login-required: a guest goes to login with this screen (its query included) as redirectUrl.
 * `postId` is the edit screen's path parameter; undefined for the write screen. Returns the
 * screen, or the Response the page answers with instead. The screen's reads (the boards, and the
 * draft or the edited post) go to D1 in the session's batch, one round trip: made for any request
 * with a session cookie, they are looked at once the session is known to be a member's.
 */
export async function loadWriteScreen(astro: Astro, postId?: string): Promise<WriteScreen | Response> {
	const editId = postId === undefined ? null : IdSchema.safeParse(postId);
	const draftParam = postId === undefined ? astro.url.searchParams.get('draftId') : null;
	// One of the member's own drafts, opened as it was saved; any other id is not found.
	const draftId = draftParam === null ? null : IdSchema.safeParse(draftParam);
	const page = await loadChannelPage(astro, (db, channel, tokenHash) => ({
		// The edited post's row, which editablePostOf checks once the member is known.
		...(tokenHash !== null && editId?.success && { post: read(editablePostStatement(db, channel.id, editId.data), (result) => result) }),
		...(tokenHash !== null && (editId?.success ?? true) && { boards: writableBoardsRead(db, channel.id) }),
		...(tokenHash !== null && !editId && draftId?.success && { draft: draftRead(db, channel.id, { tokenHash }, draftId.data) }),
	}));
	if (!page) return astro.rewrite('/404');
	// A member's screen, and never a cached guest redirect either.
	astro.response.headers.set('Cache-Control', 'private, no-store');
	const login = loginRedirect(page, astro.url);
	if (login || !isSignedIn(page.session)) return astro.redirect(login ?? page.channel.basePath, 302);
	if (page.session.kind === 'banned') return { kind: 'banned', page };
	const { member } = page.session;
	const admin = isAdmin(member);
	const { channel } = page;
	const newMember = isNewMember(member, channel.newMemberLimits, Date.now());
	const mediaLimit = newMember ? channel.newMemberLimits.maxImages : null;

	if (!editId) {
		const boards = writableBoardsOf(page.read.boards ?? [], admin);
		// Not in a session whose sign-up passed the check (docs/reference/spam-defence.md).
		const challenge = newMember && !member.humanChecked ? pageChallenge(astro) : null;
		if (draftId) {
			const draft = page.read.draft ?? null;
			if (!draft) return { kind: 'refused', page, status: 404 };
			return {
				kind: 'form',
				page,
				member,
				admin,
				boards,
				edit: null,
				draftId: draft.draftId,
				challenge,
				mediaLimit,
				fields: { boardId: draft.boardId, subjectId: draft.subjectId, title: draft.title, content: draft.content, isPrivate: false, isNotice: false },
			};
		}
		const board = startingBoard(boards, astro.url.searchParams.get('boardId'));
		return {
			kind: 'form',
			page,
			member,
			admin,
			boards,
			edit: null,
			challenge,
			mediaLimit,
			fields: { boardId: board?.boardId ?? null, subjectId: null, title: '', content: board?.template ?? null, isPrivate: false, isNotice: false },
		};
	}

	if (!editId.success) return { kind: 'refused', page, status: 404 };
	try {
		const post = editablePostOf(page.read.post, member);
		const boards = writableBoardsOf(page.read.boards ?? [], admin, post.boardId);
		const template = boards.find((board) => board.boardId === post.boardId)?.template ?? null;
		return {
			kind: 'form',
			page,
			member,
			admin,
			boards,
			edit: { postId: post.postId, version: post.version },
			mediaLimit,
			fields: {
				boardId: post.boardId,
				subjectId: post.subjectId,
				title: post.title,
				// An empty section of the board's template gets its guidance back, a bare heading a line to write in.
				content: withSectionLines(post.content, template),
				isPrivate: post.isPrivate,
				isNotice: post.isNotice,
			},
		};
	} catch (error) {
		if (!isAppError(error)) throw error;
		return { kind: 'refused', page, status: refusalStatus(error) };
	}
}

/**
 * The board `?boardId` names when the member may write in it; otherwise (none given, another
 * channel's, a notice-only board for a member) the first board they may write in, so that the
 * sidebar's Write button works from any board.
 */
function startingBoard(boards: WritableBoard[], requested: string | null): WritableBoard | undefined {
	const id = requested === null ? null : IdSchema.safeParse(requested);
	return (id?.success ? boards.find((board) => board.boardId === id.data) : undefined) ?? boards[0];
}

function refusalStatus(error: AppError): 403 | 404 {
	return error.codeName === 'Forbidden' ? 403 : 404;
}
