-- Search: exact substring search from two characters, in every script.
--
-- post_search holds exactly the posts "All Posts" lists (visible, in a public board: those with a
-- channel_seq), so a search finds nothing a guest may not read, and the services keep it so in the
-- same batch as every change of a post's lists or text (src/server/search/search-index.ts). Its
-- terms are character bigrams written by src/lib/search-text.ts; a query is the phrase of its
-- bigrams. Its rowid is channel_id × 2^32 + the post's id, so one channel's posts are one rowid
-- range: a search reads its own community's matches only, newest first, and stops at the page.
-- Contentless: the text is in posts; the index keeps terms and positions only.
CREATE VIRTUAL TABLE post_search USING fts5(title, body, content = '', contentless_delete = 1, tokenize = 'ascii', detail = 'full');

-- The nicknames of a channel's members (the search type ALL finds posts by their author's
-- nickname), by channel_id × 2^32 + the member's id; a withdrawn member has no entry.
CREATE VIRTUAL TABLE member_search USING fts5(nickname, content = '', contentless_delete = 1, tokenize = 'ascii', detail = 'full');
