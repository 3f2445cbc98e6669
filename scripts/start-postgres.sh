#!/usr/bin/env bash
# Starts the local PostgreSQL cluster (Debian's) if it is not running and makes
# sure the test database exists. Prints the export line for the test URL.
set -euo pipefail
cluster=$(pg_lsclusters --no-header 2>/dev/null | awk 'NR==1 {print $1" "$2}')
if [ -z "$cluster" ]; then
  version=$(ls /usr/lib/postgresql | sort -V | tail -n 1)
  pg_createcluster "$version" main >/dev/null
  cluster="$version main"
fi
# shellcheck disable=SC2086
pg_ctlcluster $cluster start >/dev/null 2>&1 || true
port=$(pg_lsclusters --no-header | awk 'NR==1 {print $3}')
for _ in $(seq 1 30); do
  su postgres -c "psql -p $port -tAc 'select 1'" >/dev/null 2>&1 && break
  sleep 0.5
done
su postgres -c "psql -p $port -tAc \"select 1 from pg_roles where rolname='ginrummy'\"" | grep -q 1 \
  || su postgres -c "psql -p $port -qc \"create role ginrummy login password 'ginrummy'\""
su postgres -c "psql -p $port -tAc \"select 1 from pg_database where datname='ginrummy_test'\"" | grep -q 1 \
  || su postgres -c "psql -p $port -qc 'create database ginrummy_test owner ginrummy'"
echo "export GINRUMMY_TEST_PG=postgresql://ginrummy:ginrummy@127.0.0.1:$port/ginrummy_test"
