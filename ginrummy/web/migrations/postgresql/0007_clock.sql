-- The optional per-move clock of a friend match. clock: '' (none), 'ask' (on expiry the
-- late player is told, never moved) or 'timed' (the server moves for the late seat); its
-- seconds are in the record's "clock". deadline: when the seat to act runs out of time
-- (empty: no clock runs now). The partial index serves each process's sweep of the
-- timed matches whose time ran out.
ALTER TABLE ginrummy_matches ADD COLUMN clock TEXT NOT NULL DEFAULT '';
ALTER TABLE ginrummy_matches ADD COLUMN deadline TEXT NOT NULL DEFAULT '';
CREATE INDEX ginrummy_matches_deadline ON ginrummy_matches (deadline)
    WHERE clock = 'timed' AND deadline <> '';
-- When the other player last reminded a seat that its time is up (an 'ask' clock).
ALTER TABLE ginrummy_seats ADD COLUMN reminded_at TEXT NOT NULL DEFAULT '';
