-- Play a friend. An invite holds a match's open person seat for whoever opens its
-- link first (the code is the link's secret; state: open, taken or cancelled). Each
-- seat remembers when a live stream of it last said it was there (empty: no stream).
CREATE TABLE ginrummy_invites (
    code TEXT PRIMARY KEY,
    match_id TEXT NOT NULL,
    seat INTEGER NOT NULL,
    owner TEXT NOT NULL,
    state TEXT NOT NULL,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL
);
CREATE INDEX ginrummy_invites_match ON ginrummy_invites (match_id);
ALTER TABLE ginrummy_seats ADD COLUMN seen_at TEXT NOT NULL DEFAULT '';
