# Sourced by the entrypoint on first start, as the official postgis/postgis image's 10_postgis.sh:
# a template_postgis database, and PostGIS with its usual companions in it and in POSTGRES_DB.
"${psql[@]}" --dbname postgres <<-'EOSQL'
	CREATE DATABASE template_postgis IS_TEMPLATE true;
EOSQL
for db in template_postgis "$POSTGRES_DB"; do
  echo "Loading PostGIS extensions into $db"
  "${psql[@]}" --dbname "$db" <<-'EOSQL'
	CREATE EXTENSION IF NOT EXISTS postgis;
	CREATE EXTENSION IF NOT EXISTS postgis_topology;
	-- Reconnect to update pg_setting.resetval
	\c
	CREATE EXTENSION IF NOT EXISTS fuzzystrmatch;
	CREATE EXTENSION IF NOT EXISTS postgis_tiger_geocoder;
EOSQL
done
