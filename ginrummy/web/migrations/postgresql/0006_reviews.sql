-- The coach's reviews of finished hands, each made once (off the request thread) and
-- kept: one row per match, hand and reviewed seat, its JSON as the page shows it. And
-- the hints each seat asked for, counted per hand (the statistics show them).
CREATE TABLE ginrummy_reviews (
    match_id TEXT NOT NULL,
    hand INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    body TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (match_id, hand, seat)
);
CREATE TABLE ginrummy_hints (
    match_id TEXT NOT NULL,
    hand INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    count INTEGER NOT NULL,
    PRIMARY KEY (match_id, hand, seat)
);
