-- How many requests the last statement took from a rate-limit bucket at once. A
-- process takes a few of a busy key's requests in one statement and counts them out in
-- its own memory (ginrummy.web.limits), so most requests need no statement; the
-- statement returns how many it could give. Old rows gave one, as before.
ALTER TABLE ginrummy_buckets ADD COLUMN given DOUBLE PRECISION NOT NULL DEFAULT 1;
