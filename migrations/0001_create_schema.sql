-- The whole data model of docs/reference/product-rules.md#data and the states of docs/reference/product-rules.md#states. Every row of community data carries
-- channel_id, and every list the product shows has an index that serves it without scanning a table.
-- Times are Unix epoch milliseconds (UTC). Flags are 0/1 integers; the API speaks Y/N where the product rules do.

CREATE TABLE channels (
	id INTEGER PRIMARY KEY,
	domain TEXT NOT NULL,
	slug TEXT NOT NULL,
	title TEXT NOT NULL,
	language TEXT NOT NULL CHECK (language IN ('en', 'ja', 'ko', 'zh')),
	theme_type TEXT NOT NULL CHECK (theme_type IN ('LIGHT', 'DARK')),
	key_color TEXT NOT NULL,
	background_color TEXT NOT NULL,
	pc_header_color TEXT,
	pc_header_image TEXT,
	exposure_type TEXT NOT NULL,
	exposure_board_id INTEGER,
	-- JSON objects validated by src/schemas/channel.ts: { gameBiIcon, topPinnedHome, topPinnedBoard,
	-- topPinnedTargetBoards, externalLinks }, { channels, company, companyCiIcons, copyright,
	-- policyItems, snsLinks } and { backgroundColor, imageUrl } (NULL when there is no banner).
	header_config TEXT NOT NULL,
	footer_config TEXT NOT NULL,
	banner TEXT,
	-- Number of posts listed in "All Posts"; the top of channel_seq (see posts).
	listed_count INTEGER NOT NULL DEFAULT 0,
	-- Bumped by every change to what readers see; part of every edge-cache key of the channel.
	content_version INTEGER NOT NULL DEFAULT 1,
	created_at INTEGER NOT NULL,
	UNIQUE (domain, slug)
);

CREATE TABLE channel_providers (
	channel_id INTEGER NOT NULL REFERENCES channels (id),
	provider TEXT NOT NULL CHECK (provider IN ('APPLE', 'GOOGLE', 'X')),
	sort_order INTEGER NOT NULL,
	PRIMARY KEY (channel_id, provider)
);

CREATE TABLE boards (
	id INTEGER PRIMARY KEY,
	channel_id INTEGER NOT NULL REFERENCES channels (id),
	name TEXT NOT NULL,
	description TEXT NOT NULL DEFAULT '',
	is_public INTEGER NOT NULL DEFAULT 1,
	use_shared INTEGER NOT NULL DEFAULT 0,
	-- 0 when the board takes no category ('Unable to set the category.').
	use_subjects INTEGER NOT NULL DEFAULT 1,
	-- Number of listed posts; the top of board_seq (see posts).
	listed_count INTEGER NOT NULL DEFAULT 0,
	created_at INTEGER NOT NULL
);
CREATE INDEX boards_by_channel ON boards (channel_id, id);

CREATE TABLE board_tree_nodes (
	id INTEGER PRIMARY KEY,
	channel_id INTEGER NOT NULL REFERENCES channels (id),
	parent_id INTEGER REFERENCES board_tree_nodes (id),
	sort_order INTEGER NOT NULL,
	text TEXT NOT NULL,
	type TEXT NOT NULL CHECK (type IN ('ALL', 'CATEGORY', 'BOARD', 'LINK', 'DIVIDER')),
	board_id INTEGER REFERENCES boards (id),
	public_flag INTEGER NOT NULL DEFAULT 1,
	use_shared INTEGER NOT NULL DEFAULT 0,
	url TEXT,
	use_collapsed INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX board_tree_by_channel ON board_tree_nodes (channel_id, sort_order);

CREATE TABLE board_subjects (
	id INTEGER PRIMARY KEY,
	channel_id INTEGER NOT NULL REFERENCES channels (id),
	board_id INTEGER NOT NULL REFERENCES boards (id),
	name TEXT NOT NULL,
	sort_order INTEGER NOT NULL,
	enabled INTEGER NOT NULL DEFAULT 1,
	listed_count INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX board_subjects_by_board ON board_subjects (channel_id, board_id, sort_order);

CREATE TABLE identities (
	id INTEGER PRIMARY KEY,
	provider TEXT NOT NULL CHECK (provider IN ('APPLE', 'GOOGLE', 'X')),
	subject TEXT NOT NULL,
	created_at INTEGER NOT NULL,
	UNIQUE (provider, subject)
);

-- A membership: one identity in one channel. Withdrawal unlinks the identity for good and keeps
-- the row so that posts and comments can show a withdrawn-member label.
CREATE TABLE members (
	id INTEGER PRIMARY KEY,
	channel_id INTEGER NOT NULL REFERENCES channels (id),
	identity_id INTEGER REFERENCES identities (id),
	nickname TEXT,
	role TEXT NOT NULL DEFAULT 'MEMBER' CHECK (role IN ('MEMBER', 'ADMIN')),
	provider TEXT NOT NULL,
	recent_provider TEXT NOT NULL,
	joined_at INTEGER NOT NULL,
	terms_agreed_at INTEGER,
	privacy_agreed_at INTEGER,
	withdrawn_at INTEGER
);
CREATE UNIQUE INDEX members_by_identity ON members (channel_id, identity_id) WHERE identity_id IS NOT NULL;

-- Every nickname ever held in a channel, by its comparison key. The primary key makes a nickname
-- unique per channel and keeps a released one from ever being taken again.
CREATE TABLE nickname_claims (
	channel_id INTEGER NOT NULL REFERENCES channels (id),
	nickname_key TEXT NOT NULL,
	nickname TEXT NOT NULL,
	member_id INTEGER NOT NULL REFERENCES members (id),
	claimed_at INTEGER NOT NULL,
	released_at INTEGER,
	PRIMARY KEY (channel_id, nickname_key)
);
CREATE INDEX nickname_claims_by_member ON nickname_claims (member_id, claimed_at);

CREATE TABLE sessions (
	token_hash TEXT PRIMARY KEY,
	member_id INTEGER NOT NULL REFERENCES members (id),
	channel_id INTEGER NOT NULL REFERENCES channels (id),
	created_at INTEGER NOT NULL,
	last_seen_at INTEGER NOT NULL,
	idle_expires_at INTEGER NOT NULL,
	expires_at INTEGER NOT NULL
);
CREATE INDEX sessions_by_member ON sessions (member_id);

CREATE TABLE bans (
	id INTEGER PRIMARY KEY,
	channel_id INTEGER NOT NULL REFERENCES channels (id),
	member_id INTEGER NOT NULL REFERENCES members (id),
	kind TEXT NOT NULL CHECK (kind IN ('TEMPORARY', 'PERMANENT')),
	-- End of a temporary ban; NULL for a permanent one.
	ends_at INTEGER,
	reason TEXT NOT NULL DEFAULT '',
	created_at INTEGER NOT NULL,
	lifted_at INTEGER,
	CHECK ((kind = 'TEMPORARY') = (ends_at IS NOT NULL))
);
CREATE INDEX bans_by_member ON bans (member_id, lifted_at);

-- A post is listed (in its board, its subject and "All Posts") while it is visible: not deleted,
-- not hidden by an administrator, not private, and in a public board for "All Posts". Listed posts
-- carry dense sequence numbers (1 = oldest) so that page N of any list is a range read of exactly
-- the rows it shows, at page 1 as at page 2,000; services renumber when a post leaves a list.
-- A notice is pinned above every page of its board instead of taking a place in the board's and
-- the subject's numbered lists; it keeps its place in "All Posts".
CREATE TABLE posts (
	id INTEGER PRIMARY KEY,
	channel_id INTEGER NOT NULL REFERENCES channels (id),
	board_id INTEGER NOT NULL REFERENCES boards (id),
	subject_id INTEGER REFERENCES board_subjects (id),
	member_id INTEGER NOT NULL REFERENCES members (id),
	title TEXT NOT NULL,
	-- The body as a JSON document of src/schemas/content.ts (paragraphs, headings, lists, quotes,
	-- images, YouTube embeds); rendered by the server, never stored as HTML.
	content TEXT NOT NULL,
	-- Plain text of the body, for search and previews.
	content_text TEXT NOT NULL,
	template TEXT NOT NULL DEFAULT 'DEFAULT',
	is_notice INTEGER NOT NULL DEFAULT 0,
	like_count INTEGER NOT NULL DEFAULT 0,
	view_count INTEGER NOT NULL DEFAULT 0,
	comment_count INTEGER NOT NULL DEFAULT 0,
	has_image INTEGER NOT NULL DEFAULT 0,
	has_video INTEGER NOT NULL DEFAULT 0,
	created_at INTEGER NOT NULL,
	edited_at INTEGER,
	deleted_at INTEGER,
	hidden_by_admin INTEGER NOT NULL DEFAULT 0,
	is_private INTEGER NOT NULL DEFAULT 0,
	board_seq INTEGER,
	subject_seq INTEGER,
	channel_seq INTEGER
);
CREATE UNIQUE INDEX posts_board_list ON posts (board_id, board_seq) WHERE board_seq IS NOT NULL;
CREATE UNIQUE INDEX posts_subject_list ON posts (subject_id, subject_seq) WHERE subject_seq IS NOT NULL;
CREATE UNIQUE INDEX posts_channel_list ON posts (channel_id, channel_seq) WHERE channel_seq IS NOT NULL;
CREATE INDEX posts_board_notices ON posts (board_id, id) WHERE is_notice = 1 AND deleted_at IS NULL;
CREATE INDEX posts_by_member ON posts (member_id, id);

-- One level of replies: a reply's parent_id is a top-level comment of the same post.
CREATE TABLE comments (
	id INTEGER PRIMARY KEY,
	channel_id INTEGER NOT NULL REFERENCES channels (id),
	post_id INTEGER NOT NULL REFERENCES posts (id),
	parent_id INTEGER REFERENCES comments (id),
	member_id INTEGER NOT NULL REFERENCES members (id),
	content TEXT NOT NULL,
	created_at INTEGER NOT NULL,
	edited_at INTEGER,
	deleted_at INTEGER,
	hidden_by_admin INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX comments_by_post ON comments (post_id, id);
CREATE INDEX comments_by_member ON comments (member_id, id);

CREATE TABLE post_likes (
	post_id INTEGER NOT NULL REFERENCES posts (id),
	member_id INTEGER NOT NULL REFERENCES members (id),
	channel_id INTEGER NOT NULL REFERENCES channels (id),
	created_at INTEGER NOT NULL,
	PRIMARY KEY (post_id, member_id)
);
CREATE INDEX post_likes_by_member ON post_likes (member_id, created_at);

CREATE TABLE reports (
	id INTEGER PRIMARY KEY,
	channel_id INTEGER NOT NULL REFERENCES channels (id),
	target_type TEXT NOT NULL CHECK (target_type IN ('POST', 'COMMENT')),
	target_id INTEGER NOT NULL,
	reporter_id INTEGER NOT NULL REFERENCES members (id),
	reason_code TEXT NOT NULL,
	reason_text TEXT NOT NULL DEFAULT '',
	created_at INTEGER NOT NULL,
	UNIQUE (target_type, target_id, reporter_id)
);
CREATE INDEX reports_by_channel ON reports (channel_id, id);

CREATE TABLE drafts (
	id INTEGER PRIMARY KEY,
	channel_id INTEGER NOT NULL REFERENCES channels (id),
	member_id INTEGER NOT NULL REFERENCES members (id),
	board_id INTEGER REFERENCES boards (id),
	subject_id INTEGER REFERENCES board_subjects (id),
	title TEXT NOT NULL DEFAULT '',
	content TEXT NOT NULL,
	template TEXT NOT NULL DEFAULT 'DEFAULT',
	created_at INTEGER NOT NULL,
	updated_at INTEGER NOT NULL
);
CREATE INDEX drafts_by_member ON drafts (member_id, updated_at);

CREATE TABLE uploads (
	id INTEGER PRIMARY KEY,
	channel_id INTEGER NOT NULL REFERENCES channels (id),
	member_id INTEGER NOT NULL REFERENCES members (id),
	r2_key TEXT NOT NULL UNIQUE,
	content_type TEXT NOT NULL,
	size INTEGER NOT NULL,
	width INTEGER,
	height INTEGER,
	created_at INTEGER NOT NULL
);
CREATE INDEX uploads_by_member ON uploads (member_id, id);
