-- Spam defence (docs/reference/spam-defence.md): a community's limits for new members, the
-- community file's `newMembers` as JSON (src/server/spam/new-members.ts); NULL for a community
-- applied before, which has the defaults. The counts use posts_by_member and comments_by_member.
ALTER TABLE channels ADD COLUMN new_member_limits TEXT;
