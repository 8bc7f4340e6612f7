#!/usr/bin/env bash
# Entrypoint of the offline PostGIS stand-in. It keeps the documented contract of the official postgres
# image: POSTGRES_PASSWORD (or POSTGRES_PASSWORD_FILE), POSTGRES_USER (default postgres), POSTGRES_DB
# (default: the user), POSTGRES_INITDB_ARGS, POSTGRES_HOST_AUTH_METHOD, PGDATA; on an empty data directory it
# runs initdb, creates the database, then runs /docker-entrypoint-initdb.d/*.sh (executable: run, else
# sourced), *.sql and *.sql.gz against it; a data directory that holds a cluster is started as it is.
set -Eeuo pipefail

# `docker run image -c shared_buffers=256MB`: options for postgres.
if [ "${1:0:1}" = '-' ]; then set -- postgres "$@"; fi

if [ "$1" != postgres ]; then exec "$@"; fi

# Started as root: own the directories, then run this script again as postgres.
if [ "$(id -u)" = 0 ]; then
  mkdir -p "$PGDATA" /var/run/postgresql
  find "$PGDATA" /var/run/postgresql \! -user postgres -exec chown postgres:postgres '{}' +
  chmod 700 "$PGDATA"
  exec setpriv --reuid=postgres --regid=postgres --init-groups "${BASH_SOURCE[0]}" "$@"
fi

if [ -s "$PGDATA/PG_VERSION" ]; then
  echo "PostgreSQL Database directory appears to contain a database; Skipping initialization"
  exec "$@"
fi

if [ -n "${POSTGRES_PASSWORD_FILE:-}" ]; then POSTGRES_PASSWORD="$(< "$POSTGRES_PASSWORD_FILE")"; fi
: "${POSTGRES_USER:=postgres}"
: "${POSTGRES_DB:=$POSTGRES_USER}"
if [ -z "${POSTGRES_PASSWORD:-}" ] && [ "${POSTGRES_HOST_AUTH_METHOD:-}" != trust ]; then
  cat >&2 <<'EOM'
Error: Database is uninitialized and superuser password is not specified.
       You must specify POSTGRES_PASSWORD to a non-empty value for the superuser, or
       POSTGRES_HOST_AUTH_METHOD=trust to allow all connections without a password.
EOM
  exit 1
fi
export POSTGRES_USER POSTGRES_DB POSTGRES_PASSWORD

# initdb's defaults trust the local socket; other hosts need the password.
eval 'initdb --username="$POSTGRES_USER" --pwfile=<(printf "%s\n" "${POSTGRES_PASSWORD:-}") '"${POSTGRES_INITDB_ARGS:-}"
auth="${POSTGRES_HOST_AUTH_METHOD:-$(postgres -C password_encryption -D "$PGDATA")}"
printf '\nhost all all all %s\n' "$auth" >> "$PGDATA/pg_hba.conf"
printf "\nlisten_addresses = '*'\n" >> "$PGDATA/postgresql.conf"

# A temporary server on the socket only, so no client sees it as ready before initialization ends.
pg_ctl -D "$PGDATA" -o "-c listen_addresses='' -p ${PGPORT:-5432}" -w start
psql=(psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --no-password --no-psqlrc)
if [ "$POSTGRES_DB" != postgres ]; then
  "${psql[@]}" --dbname postgres --set db="$POSTGRES_DB" <<<'CREATE DATABASE :"db" ;'
fi
psql+=(--dbname "$POSTGRES_DB")

for f in /docker-entrypoint-initdb.d/*; do
  case "$f" in
    *.sh)
      if [ -x "$f" ]; then echo "$0: running $f"; "$f"
      else echo "$0: sourcing $f"; . "$f"; fi ;;
    *.sql) echo "$0: running $f"; "${psql[@]}" -f "$f" ;;
    *.sql.gz) echo "$0: running $f"; gunzip -c "$f" | "${psql[@]}" ;;
    *) [ -e "$f" ] && echo "$0: ignoring $f" ;;
  esac
done

pg_ctl -D "$PGDATA" -m fast -w stop
echo "PostgreSQL init process complete; ready for start up."
exec "$@"
