-- Sign-in: the short-lived state of an OAuth transaction and of a sign-up in progress, and the
-- indexes that expire sessions. Only hashes of the browser's secrets are stored.

-- One sign-in attempt, from POST oauth/login to the provider's return. Keyed by the SHA-256 of
-- the random value in the browser's transaction cookie, so the state, PKCE verifier and nonce are
-- bound to that browser; the callback deletes the row as it reads it, so a transaction works once.
CREATE TABLE oauth_transactions (
	id_hash TEXT PRIMARY KEY,
	channel_id INTEGER NOT NULL REFERENCES channels (id),
	provider TEXT NOT NULL CHECK (provider IN ('APPLE', 'GOOGLE', 'X')),
	state TEXT NOT NULL,
	code_verifier TEXT NOT NULL,
	-- NULL for X, which is not OpenID Connect and issues no ID token.
	nonce TEXT,
	redirect_url TEXT NOT NULL,
	created_at INTEGER NOT NULL,
	expires_at INTEGER NOT NULL
);
CREATE INDEX oauth_transactions_by_expiry ON oauth_transactions (expires_at);

-- A provider identity that has no membership in the channel yet: the sign-up terms and the
-- nickname come next. Keyed by the SHA-256 of the random value in the sign-up cookie.
CREATE TABLE signups (
	token_hash TEXT PRIMARY KEY,
	channel_id INTEGER NOT NULL REFERENCES channels (id),
	identity_id INTEGER NOT NULL REFERENCES identities (id),
	provider TEXT NOT NULL CHECK (provider IN ('APPLE', 'GOOGLE', 'X')),
	redirect_url TEXT NOT NULL,
	terms_agreed_at INTEGER,
	privacy_agreed_at INTEGER,
	created_at INTEGER NOT NULL,
	expires_at INTEGER NOT NULL
);
CREATE INDEX signups_by_expiry ON signups (expires_at);

CREATE INDEX sessions_by_expiry ON sessions (expires_at);
CREATE INDEX bans_active_by_member ON bans (member_id, ends_at) WHERE lifted_at IS NULL;
