-- The distributed form measured in docs/scaling.md#citus: NOT applied by the service (the import fails on
-- it today, at its upsert; the searches answer as on one node once the API is restarted after it, as the API reads at
-- start whether imagery is distributed). Run it by hand on a copy to reproduce the measurement:
--   docker compose --env-file docker/citus/citus.env exec -T citus-coordinator psql -U lis -d lis < docker/citus/distribute.sql
-- imagery hashed by id (its primary key; a record's country changes when it is relinked, and Citus does
-- not move a row between shards), everything else a reference table (places' two unique keys share no
-- column, so places cannot be hashed). Triggers cannot run on distributed tables here: their upkeep
-- (vocabulary counts, ranked-list entries, the coverage cells' touched locations) would have to move
-- into the import.
\set ON_ERROR_STOP on
BEGIN;
DROP TRIGGER imagery_words_on_insert ON imagery;
DROP TRIGGER imagery_words_on_update ON imagery;
DROP TRIGGER imagery_words_on_delete ON imagery;
DROP TRIGGER imagery_words_on_truncate ON imagery;
DROP TRIGGER imagery_word_ranks_on_update ON imagery;
DROP TRIGGER imagery_word_ranks_on_delete ON imagery;
DROP TRIGGER imagery_word_ranks_on_truncate ON imagery;
DROP TRIGGER imagery_coverage_on_insert ON imagery;
DROP TRIGGER imagery_coverage_on_update ON imagery;
DROP TRIGGER imagery_coverage_on_delete ON imagery;
DROP TRIGGER imagery_coverage_on_truncate ON imagery;
-- api_keys is a reference table already (the migrator makes it one, src/database/citus-layout.ts).
SELECT create_reference_table(t) FROM unnest(ARRAY[
  'places', 'imagery_words', 'imagery_word_ranks', 'imagery_word_lists', 'imagery_word_ranks_state',
  'place_term_ranks', 'place_term_lists', 'place_term_state', 'imagery_first_load'
]) AS t;
SELECT create_distributed_table('imagery', 'id');
COMMIT;
