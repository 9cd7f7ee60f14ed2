/**
 * What readers see of the member who wrote a post or a comment: a withdrawn member's name is never
 * shown, and an administrator (now) carries a role badge beside the name.
 */
import { isAdmin } from '@/lib/roles';

export interface PostAuthor {
	userId: number;
	/** null once the member has withdrawn. */
	nickname: string | null;
	withdrawn: boolean;
	/** An administrator of the community (now): readers see a role badge beside the name. */
	admin: boolean;
}

/** The author as readers see them, from their members row (read in the same query as what they wrote). */
export function authorOf(memberId: number, nickname: string | null, withdrawnAt: number | null, role: string): PostAuthor {
	return {
		userId: memberId,
		nickname: withdrawnAt ? null : nickname,
		withdrawn: withdrawnAt !== null,
		admin: withdrawnAt === null && isAdmin({ role }),
	};
}
