-- Communities set up from a file (npm run channel -- apply): the file names each board by
-- a key of its own, unique in its community, so that applying it again finds the same board.
-- Boards made before have a key from their id.
ALTER TABLE boards ADD COLUMN key TEXT;
UPDATE boards SET key = 'board-' || id WHERE key IS NULL;
CREATE UNIQUE INDEX boards_by_key ON boards (channel_id, key);
