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
    bot_seed INTEGER,
    holder TEXT NOT NULL DEFAULT '',
    name TEXT,
    score INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (match_id, seat)
);
INSERT INTO ginrummy_seats (match_id, seat, kind, bot, bot_seed, holder, name, score)
    SELECT id, 0, 'person', NULL, NULL, seat, NULL, score_you FROM ginrummy_matches;
INSERT INTO ginrummy_seats (match_id, seat, kind, bot, bot_seed, holder, name, score)
    SELECT id, 1, 'bot', COALESCE(json_extract(meta, '$.bot'),
                           json_extract(record, '$.settings.difficulty'), 'medium'),
           json_extract(meta, '$.bot_seed'), '', NULL, score_computer
    FROM ginrummy_matches;
CREATE TABLE ginrummy_matches_new (
    id TEXT PRIMARY KEY,
    version INTEGER NOT NULL,
    status TEXT NOT NULL,
    owner TEXT NOT NULL DEFAULT '',
    record TEXT NOT NULL,
    meta TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
INSERT INTO ginrummy_matches_new (id, version, status, owner, record, meta, created_at, updated_at)
    SELECT id, version, status, seat, record, json_remove(meta, '$.bot_seed', '$.bot'), created_at,
           updated_at
    FROM ginrummy_matches;
DROP TABLE ginrummy_matches;
ALTER TABLE ginrummy_matches_new RENAME TO ginrummy_matches;
CREATE INDEX ginrummy_matches_updated ON ginrummy_matches (updated_at);
CREATE INDEX ginrummy_matches_owner ON ginrummy_matches (owner, updated_at);
CREATE INDEX ginrummy_seats_holder ON ginrummy_seats (holder);
ALTER TABLE ginrummy_replies ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
