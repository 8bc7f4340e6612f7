#!/usr/bin/env bash
# /docker-entrypoint-initdb.d script of the db service (runs once, when the data volume is created):
# lets the scale profile's db-replica connect for streaming replication (pg_basebackup, WAL streaming)
# with the database password. Sourced by the image's entrypoint, as its other init scripts are.
printf '\nhost replication all all scram-sha-256\n' >> "$PGDATA/pg_hba.conf"
