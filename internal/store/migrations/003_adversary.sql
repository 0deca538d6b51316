-- Games whose codemaker holds no code and answers each guess so as to keep
-- the most codes possible (mm.Game.Adversary); their secret column is not
-- used.
ALTER TABLE games ADD COLUMN adversary INTEGER NOT NULL DEFAULT 0;
