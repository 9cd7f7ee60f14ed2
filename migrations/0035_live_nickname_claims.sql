-- The @ suggestions read the live nickname claims of a prefix (src/server/notifications/mentions.ts
-- suggestMembers): through this index a one-character prefix reads at most its bounded window of
-- live claims, never the released ones (every nickname change and withdrawal leaves one) in its range.
CREATE INDEX nickname_claims_live ON nickname_claims (channel_id, nickname_key) WHERE released_at IS NULL;
