-- Keys the server keeps (the seat tokens' signing key), made the first time they are
-- asked for, the same for every process on the database. A database written by a
-- version that made this table on demand has it already.
CREATE TABLE IF NOT EXISTS ginrummy_secrets (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
