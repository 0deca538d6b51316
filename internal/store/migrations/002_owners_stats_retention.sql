-- Owners, statistics that cost O(variants), and indexes for the retention
-- sweep.

-- The SHA-256 of the token that the player got when the game was created;
-- NULL for the games created before tokens, which any token may play.
ALTER TABLE games ADD COLUMN owner_key BLOB;

-- The games of each variant, counted as they start and end, in the
-- transaction that starts or ends them, so that deleting old games keeps
-- their results. A game lost to the clock without a guess to record it is
-- counted when the sweep records it; until then Stats adds it.
CREATE TABLE stats (
	colors      INTEGER NOT NULL,
	pegs        INTEGER NOT NULL,
	distinct_   INTEGER NOT NULL,
	played      INTEGER NOT NULL DEFAULT 0,
	won         INTEGER NOT NULL DEFAULT 0,
	lost        INTEGER NOT NULL DEFAULT 0,
	won_guesses INTEGER NOT NULL DEFAULT 0,
	PRIMARY KEY (colors, pegs, distinct_)
) STRICT, WITHOUT ROWID;

INSERT INTO stats (colors, pegs, distinct_, played, won, lost, won_guesses)
SELECT colors, pegs, distinct_, COUNT(*),
	SUM(status = 'won'), SUM(status = 'lost'),
	SUM(CASE WHEN status = 'won' THEN guesses ELSE 0 END)
FROM games GROUP BY colors, pegs, distinct_;

-- Stats no longer reads the games.
DROP INDEX games_by_rules;

-- Games in play with a deadline, for the sweep and for Stats, which counts
-- those past it as lost; with their variant, so that Stats reads the
-- index alone.
CREATE INDEX games_expiring ON games (deadline_ms, colors, pegs, distinct_)
	WHERE status = 'playing' AND deadline_ms IS NOT NULL;
-- Games in play by age, for the sweep of abandoned games.
CREATE INDEX games_playing ON games (created_ms) WHERE status = 'playing';
-- Finished games by the time they ended, for the retention sweep.
CREATE INDEX games_ended ON games (ended_ms) WHERE status <> 'playing';
