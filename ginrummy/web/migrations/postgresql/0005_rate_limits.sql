-- Rate-limit buckets (ginrummy.web.limits), shared by every server process on the
-- database, so that a player's allowance and an address's new seats are the same
-- whichever process answers. One row a key (a seat, an address), taken from and
-- refilled by one statement on the database's clock. UNLOGGED: a bucket is no
-- record of play, and a crash that empties the table only refills everybody's
-- allowance, so its writes skip the write-ahead log.
CREATE UNLOGGED TABLE ginrummy_buckets (
    key TEXT PRIMARY KEY,
    tokens DOUBLE PRECISION NOT NULL,
    at DOUBLE PRECISION NOT NULL,
    full_at DOUBLE PRECISION NOT NULL,
    allowed BOOLEAN NOT NULL
);
