-- The schema as it stood before versioned migrations (commit 44681f2). A database
-- made by that code already has these tables; a new one gets them here.
CREATE TABLE IF NOT EXISTS ginrummy_matches (
    id TEXT PRIMARY KEY,
    version INTEGER NOT NULL,
    status TEXT NOT NULL,
    score_you INTEGER NOT NULL,
    score_computer INTEGER NOT NULL,
    record TEXT NOT NULL,
    meta TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    seat TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS ginrummy_matches_updated ON ginrummy_matches (updated_at);
CREATE INDEX IF NOT EXISTS ginrummy_matches_seat ON ginrummy_matches (seat, updated_at);
CREATE TABLE IF NOT EXISTS ginrummy_seeds (
    commitment TEXT PRIMARY KEY,
    server_seed TEXT NOT NULL,
    seat TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS ginrummy_replies (
    match_id TEXT NOT NULL,
    action_id TEXT NOT NULL,
    body TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (match_id, action_id)
);
