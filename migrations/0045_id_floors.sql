-- Ids unique across databases (docs/reference/databases.md#ids). Each database hands out the ids of
-- its tables in its own range (src/server/databases/ids.ts); a move raises, in the database it
-- copied from, the floor of each table to the largest id of the community's rows in that range,
-- so ids of rows that left are never handed out again there. One row per table, only once a move
-- took rows out.
CREATE TABLE id_floors (
	name TEXT PRIMARY KEY,
	floor INTEGER NOT NULL
) WITHOUT ROWID;
