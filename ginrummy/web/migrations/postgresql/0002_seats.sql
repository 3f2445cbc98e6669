-- Seats in their own table, each with its score; the match keeps its owner (who
-- started it). The old rows were "the person in seat 0, the computer in seat 1":
-- the computer's level moves from the record's settings (or the server-side data,
-- where a version between kept it there) to its seat, and its seed from the
-- match's server-side data. Stored replies learn the version they
-- answered, so that only the last few per match are kept.
CREATE TABLE ginrummy_seats (
    match_id TEXT NOT NULL,
    seat INTEGER NOT NULL,
    kind TEXT NOT NULL,
    bot TEXT,
    bot_seed BIGINT,
    holder TEXT NOT NULL DEFAULT '',
    name TEXT,
    score INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (match_id, seat)
);
INSERT INTO ginrummy_seats (match_id, seat, kind, bot, bot_seed, holder, name, score)
    SELECT id, 0, 'person', NULL, NULL, seat, NULL, score_you FROM ginrummy_matches;
INSERT INTO ginrummy_seats (match_id, seat, kind, bot, bot_seed, holder, name, score)
    SELECT id, 1, 'bot', COALESCE(meta::jsonb ->> 'bot', record::jsonb #>> '{settings,difficulty}',
                           'medium'),
           (meta::jsonb ->> 'bot_seed')::bigint, '', NULL, score_computer
    FROM ginrummy_matches;
UPDATE ginrummy_matches SET meta = (meta::jsonb - 'bot_seed' - 'bot')::text;
ALTER TABLE ginrummy_matches DROP COLUMN score_you, DROP COLUMN score_computer;
DROP INDEX IF EXISTS ginrummy_matches_seat;
ALTER TABLE ginrummy_matches RENAME COLUMN seat TO owner;
CREATE INDEX ginrummy_matches_owner ON ginrummy_matches (owner, updated_at);
CREATE INDEX ginrummy_seats_holder ON ginrummy_seats (holder);
ALTER TABLE ginrummy_replies ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
