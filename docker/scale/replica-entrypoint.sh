#!/usr/bin/env bash
# Entrypoint of the scale profile's db-replica: the postgis image (official or offline stand-in) made a
# streaming replica the way operators do it. An init script cannot (it runs after initdb made a new,
# unrelated cluster), so this wrapper runs first: on an empty data volume it copies the primary with
# `pg_basebackup -R` (standby.signal and primary_conninfo), then hands over to the image's own
# entrypoint, which finds a cluster and starts it as it is: a hot standby following the primary.
# Environment: PRIMARY_HOST (default db), PRIMARY_PORT (5432), POSTGRES_USER, POSTGRES_PASSWORD, PGDATA.
set -Eeuo pipefail
: "${PRIMARY_HOST:=db}" "${PRIMARY_PORT:=5432}" "${POSTGRES_USER:=postgres}"
: "${PGDATA:=/var/lib/postgresql/data}"

# The image's entrypoint starts as root and drops to postgres; pg_basebackup must write as postgres too.
if [ "$(id -u)" = 0 ]; then
  mkdir -p "$PGDATA" && chown postgres:postgres "$PGDATA" && chmod 700 "$PGDATA"
  exec setpriv --reuid=postgres --regid=postgres --init-groups "${BASH_SOURCE[0]}" "$@"
fi

if [ ! -s "$PGDATA/PG_VERSION" ]; then
  echo "db-replica: waiting for the primary at $PRIMARY_HOST:$PRIMARY_PORT"
  until pg_isready -q -h "$PRIMARY_HOST" -p "$PRIMARY_PORT" -U "$POSTGRES_USER"; do sleep 1; done
  echo "db-replica: copying the primary (pg_basebackup -R)"
  PGPASSWORD="${POSTGRES_PASSWORD:-}" pg_basebackup -h "$PRIMARY_HOST" -p "$PRIMARY_PORT" -U "$POSTGRES_USER" \
    -D "$PGDATA" -R -X stream -c fast --no-password
  # primary_conninfo (written by -R) carries the password, as PostgreSQL's own tooling does; keep it private.
  chmod 600 "$PGDATA/postgresql.auto.conf"
fi
exec docker-entrypoint.sh "$@"
