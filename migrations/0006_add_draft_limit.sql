-- Drafts.
--
-- A member's drafts of a channel, newest-updated first, and their count, from one index: the list
-- and the count read index entries of that member alone, and withdrawal still finds them by member.
DROP INDEX drafts_by_member;
CREATE INDEX drafts_by_member ON drafts (member_id, channel_id, updated_at);

-- At most 100 drafts per member and channel (DRAFT_LIMIT of src/schemas/post-write.ts; a unit test
-- keeps the two equal). The check runs inside the INSERT's transaction, so two racing saves cannot
-- both pass it, and it aborts the whole D1 batch: statements batched after the INSERT (the claims
-- that keep the draft's uploads, which name the new draft by last_insert_rowid()) never run for a
-- refused draft. src/server/drafts/drafts.ts answers the abort with DraftLimitReached.
CREATE TRIGGER drafts_limit BEFORE INSERT ON drafts
WHEN (SELECT count(*) FROM drafts WHERE member_id = NEW.member_id AND channel_id = NEW.channel_id) >= 100
BEGIN
	SELECT RAISE(ABORT, 'DraftLimitReached');
END;
