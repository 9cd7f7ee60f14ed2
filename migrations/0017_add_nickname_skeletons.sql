-- Look-alike nicknames: every claim, current or retired, keeps the confusable
-- skeleton of its name (UTS #39, src/lib/nickname-skeleton.ts), and no two claims of a channel share
-- one, so PixeIFarmTeam cannot be taken beside PixelFarmTeam, even by two sign-ups racing each other.
-- SQL cannot compute a skeleton: claims made before this migration keep NULL (which the index lets
-- repeat) until `npm run member -- skeletons` fills them in; new claims store it on write.
ALTER TABLE nickname_claims ADD COLUMN nickname_skeleton TEXT;
CREATE UNIQUE INDEX nickname_claims_by_skeleton ON nickname_claims (channel_id, nickname_skeleton);
