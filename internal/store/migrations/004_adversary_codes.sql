-- The codes an adversary game in play may still claim to hold, as of its
-- first `turns` turns, in the compact form of adversary.go (a list of
-- space indices, or a bitmap of the space, whichever is smaller: at most
-- 8 KiB for the 65,536 codes of 16 colours × 4 pegs), written in the
-- transaction of each guess, so that a guess on a game not in memory
-- reads them rather than working them out from every turn. A game that
-- ends loses its row; one from before this table has none, and has its
-- codes worked out from its turns at its next guess, once.
CREATE TABLE adversary_codes (
	game_id TEXT    PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
	turns   INTEGER NOT NULL CHECK (turns >= 0),
	codes   BLOB    NOT NULL
) STRICT;
