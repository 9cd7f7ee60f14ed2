-- A session begun by a sign-up that passed the human check (Turnstile) records when, so that the
-- write screen does not ask the same person again in that session (docs/reference/spam-defence.md). Set in
-- the INSERT that creates the session: no write of its own. A sign-in's session leaves it NULL.
ALTER TABLE sessions ADD COLUMN human_checked_at INTEGER;
