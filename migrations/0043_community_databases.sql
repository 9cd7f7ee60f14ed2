-- Communities spread over several D1 databases (docs/reference/databases.md). Every database gets
-- every migration: one schema. In the directory (binding DB) `database` names the binding that holds
-- the community's rows (DB itself, or DB_1, DB_2, ...); in a content database the copy of the
-- channel's row says the same, so a request that read the row where the community no longer lives
-- (an isolate's memo from before a move) sees it and asks the directory again. `moving_to` is set
-- while `npm run channel -- move` copies the community: writes are refused until the switch is done.
ALTER TABLE channels ADD COLUMN database TEXT NOT NULL DEFAULT 'DB' CHECK (database = 'DB' OR database GLOB 'DB_[1-9]*');
ALTER TABLE channels ADD COLUMN moving_to TEXT CHECK (moving_to IS NULL OR moving_to = 'DB' OR moving_to GLOB 'DB_[1-9]*');
