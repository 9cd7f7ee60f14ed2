-- What a moderated member is told (docs/reference/moderation.md#what-a-moderated-member-is-told).
--
-- The community file's `moderation.contact`: where a member asks for a review of a hide or a ban
-- (an email address or an https address), NULL when the file names none.
ALTER TABLE channels ADD COLUMN moderation_contact TEXT;

-- The reason the administrator typed, copied into the HIDDEN notification when it is written (the
-- audit log's row of the hide holds the same text); NULL for the automatic hide and the other kinds.
ALTER TABLE notifications ADD COLUMN reason TEXT;
