#!/usr/bin/env bash
# /docker-entrypoint-initdb.d script of the citus profile's nodes (runs once, when the data volume is
# created; sourced by the image's entrypoint after 10_postgis.sh): the citus extension in POSTGRES_DB, and
# on the coordinator (CITUS_ROLE=coordinator) its own address, the password the nodes use to reach each
# other, and the workers of CITUS_WORKERS ("host:port host:port"), each waited for, then registered.
"${psql[@]}" --dbname "$POSTGRES_DB" <<<'CREATE EXTENSION IF NOT EXISTS citus;'
if [ "${CITUS_ROLE:-worker}" = coordinator ]; then
  # Nodes connect to each other as POSTGRES_USER with its password (node 0: every node).
  "${psql[@]}" --dbname "$POSTGRES_DB" --set host="${CITUS_COORDINATOR_HOST:?}" \
    --set auth="password=$POSTGRES_PASSWORD" --set role="$POSTGRES_USER" <<'EOSQL'
SELECT citus_set_coordinator_host(:'host', 5432);
INSERT INTO pg_dist_authinfo (nodeid, rolename, authinfo) VALUES (0, :'role', :'auth');
EOSQL
  # The shards imagery is split into when the service's migrator distributes it (docs/scaling.md#citus).
  if [ -n "${CITUS_SHARD_COUNT:-}" ]; then
    "${psql[@]}" --dbname "$POSTGRES_DB" <<<"ALTER DATABASE \"$POSTGRES_DB\" SET citus.shard_count = ${CITUS_SHARD_COUNT};"
  fi
  for worker in ${CITUS_WORKERS:-}; do
    host="${worker%%:*}" port="${worker##*:}"
    [ "$port" = "$worker" ] && port=5432
    for _ in $(seq 1 120); do
      pg_isready -q -h "$host" -p "$port" -U "$POSTGRES_USER" -d "$POSTGRES_DB" && break
      sleep 1
    done
    echo "citus: adding worker $host:$port"
    "${psql[@]}" --dbname "$POSTGRES_DB" --set host="$host" --set port="$port" \
      <<<'SELECT citus_add_node(:'"'"'host'"'"', :port);'
  done
fi
