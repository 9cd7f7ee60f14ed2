-- Indexes that the layout read and the nickname rules need.

-- The sign-in providers of a channel, in their display order (read with the layout).
CREATE INDEX channel_providers_by_order ON channel_providers (channel_id, sort_order);

-- At most one nickname in use per member: two sign-ups of one identity racing each other, or any
-- other path, can never leave a member holding two active names.
CREATE UNIQUE INDEX nickname_claims_active_per_member ON nickname_claims (member_id) WHERE released_at IS NULL;
