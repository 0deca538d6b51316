-- Games and their guesses. Times are Unix milliseconds; codes are written in
-- the default alphabet.
CREATE TABLE games (
	id            TEXT    PRIMARY KEY,
	colors        INTEGER NOT NULL,
	pegs          INTEGER NOT NULL,
	distinct_     INTEGER NOT NULL CHECK (distinct_ IN (0, 1)),
	max_guesses   INTEGER NOT NULL,
	time_limit_ms INTEGER NOT NULL,
	deadline_ms   INTEGER,                  -- created_ms + time_limit_ms; NULL without a time limit
	secret        TEXT    NOT NULL,
	created_ms    INTEGER NOT NULL,
	status        TEXT    NOT NULL DEFAULT 'playing' CHECK (status IN ('playing', 'won', 'lost')),
	guesses       INTEGER NOT NULL DEFAULT 0, -- set when the game ends
	ended_ms      INTEGER
) STRICT;

CREATE INDEX games_by_rules ON games (colors, pegs, distinct_, status);

CREATE TABLE guesses (
	game_id TEXT    NOT NULL REFERENCES games (id),
	n       INTEGER NOT NULL CHECK (n >= 1), -- 1 for the first guess of the game
	guess   TEXT    NOT NULL,
	black   INTEGER NOT NULL,
	white   INTEGER NOT NULL,
	at_ms   INTEGER NOT NULL,
	PRIMARY KEY (game_id, n)
) STRICT, WITHOUT ROWID;
