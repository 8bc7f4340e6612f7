-- The database schema as the migrations leave it, as pg_dump --schema-only writes it for PostgreSQL 15
-- (written by `npm run sql:functions`; change it in a migration).

--
-- PostgreSQL database dump
--

SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

--
-- Name: btree_gin; Type: EXTENSION; Schema: -; Owner: -
--

CREATE EXTENSION IF NOT EXISTS btree_gin WITH SCHEMA public;

--
-- Name: EXTENSION btree_gin; Type: COMMENT; Schema: -; Owner: -
--

COMMENT ON EXTENSION btree_gin IS 'support for indexing common datatypes in GIN';

--
-- Name: pg_trgm; Type: EXTENSION; Schema: -; Owner: -
--

CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;

--
-- Name: EXTENSION pg_trgm; Type: COMMENT; Schema: -; Owner: -
--

COMMENT ON EXTENSION pg_trgm IS 'text similarity measurement and index searching based on trigrams';

--
-- Name: postgis; Type: EXTENSION; Schema: -; Owner: -
--

CREATE EXTENSION IF NOT EXISTS postgis WITH SCHEMA public;

--
-- Name: EXTENSION postgis; Type: COMMENT; Schema: -; Owner: -
--

COMMENT ON EXTENSION postgis IS 'PostGIS geometry and geography spatial types and functions';

--
-- Name: unaccent; Type: EXTENSION; Schema: -; Owner: -
--

CREATE EXTENSION IF NOT EXISTS unaccent WITH SCHEMA public;

--
-- Name: EXTENSION unaccent; Type: COMMENT; Schema: -; Owner: -
--

COMMENT ON EXTENSION unaccent IS 'text search dictionary that removes accents';

--
-- Name: lis_coverage_cell_xy; Type: TYPE; Schema: public; Owner: -
--

CREATE TYPE public.lis_coverage_cell_xy AS (
	cx integer,
	cy integer
);

--
-- Name: lis_add_word_counts(tsvector[], tsvector[]); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.lis_add_word_counts(removed tsvector[], added tsvector[]) RETURNS void
    LANGUAGE plpgsql
    AS $$
BEGIN
  INSERT INTO "imagery_words" AS v ("word", "docs")
  SELECT w.word, sum(c.n)::int
  FROM (
    SELECT r.tsv, -1 FROM unnest(removed) AS r(tsv)
    UNION ALL
    SELECT a.tsv, 1 FROM unnest(added) AS a(tsv)
  ) AS c(tsv, n), unnest(tsvector_to_array(c.tsv)) AS w(word)
  WHERE lis_vocabulary_word(w.word)
  GROUP BY w.word
  HAVING sum(c.n) <> 0
  ORDER BY w.word
  ON CONFLICT ("word") DO UPDATE SET "docs" = greatest(v."docs" + EXCLUDED."docs", 0);
END $$;

--
-- Name: lis_apply_coverage_cells(integer); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.lis_apply_coverage_cells(z integer) RETURNS bigint
    LANGUAGE plpgsql
    AS $$
DECLARE
  changed bigint;
BEGIN
  CREATE TEMPORARY TABLE coverage_diff ON COMMIT DROP AS
  SELECT o.row_id, o.geom AS old_geom, o.count AS old_count, n.geom, n.count, n.image_id, n.heading, n.interactive,
         n.captured_at
  FROM coverage_old o FULL JOIN coverage_new n ON n.kx = o.kx AND n.ky = o.ky
  WHERE (ST_X(o.geom), ST_Y(o.geom), o.count, o.image_id, o.heading, o.interactive, o.captured_at)
        IS DISTINCT FROM (ST_X(n.geom), ST_Y(n.geom), n.count, n.image_id, n.heading, n.interactive, n.captured_at);
  DELETE FROM coverage_cells
  WHERE zoom = z AND ctid = ANY (ARRAY(SELECT row_id FROM coverage_diff WHERE row_id IS NOT NULL));
  INSERT INTO coverage_cells (zoom, geom, count, image_id, heading, interactive, captured_at)
  SELECT z, geom, count, image_id, heading, interactive, captured_at FROM coverage_diff WHERE geom IS NOT NULL;
  DELETE FROM coverage_changed;
  INSERT INTO coverage_changed (geom, delta)
  SELECT old_geom, -old_count FROM coverage_diff WHERE old_geom IS NOT NULL
  UNION ALL SELECT geom, count FROM coverage_diff WHERE geom IS NOT NULL;
  SELECT count(*) INTO changed FROM coverage_diff;
  DROP TABLE coverage_old, coverage_new, coverage_diff;
  RETURN changed;
END $$;

--
-- Name: lis_begin_first_load(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.lis_begin_first_load() RETURNS boolean
    LANGUAGE plpgsql
    AS $$
DECLARE
  names TEXT[];
  definitions TEXT[];
  name TEXT;
BEGIN
  LOCK TABLE "imagery" IN ACCESS EXCLUSIVE MODE NOWAIT;
  IF EXISTS (SELECT 1 FROM "imagery") OR EXISTS (SELECT 1 FROM "imagery_first_load") THEN
    RETURN false;
  END IF;
  SELECT coalesce(array_agg(format('%I', c.relname) ORDER BY a.amname = 'btree', c.relname), '{}'),
         coalesce(array_agg(regexp_replace(pg_get_indexdef(x.indexrelid), '^CREATE INDEX ', 'CREATE INDEX IF NOT EXISTS ')
                            ORDER BY a.amname = 'btree', c.relname), '{}')
  INTO names, definitions
  FROM pg_index x JOIN pg_class c ON c.oid = x.indexrelid JOIN pg_am a ON a.oid = c.relam
  WHERE x.indrelid = 'imagery'::regclass AND NOT x.indisunique AND NOT x.indisprimary;
  INSERT INTO "imagery_first_load" ("indexes") VALUES (definitions);
  FOREACH name IN ARRAY names LOOP
    EXECUTE format('DROP INDEX %s', name);
  END LOOP;
  RETURN true;
EXCEPTION WHEN lock_not_available OR insufficient_privilege THEN
  RETURN false;
END $$;

--
-- Name: lis_build_word_ranks(text[], bigint[], integer); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.lis_build_word_ranks(terms text[], matches bigint[], list_size integer) RETURNS integer
    LANGUAGE plpgsql
    AS $$
DECLARE
  i INTEGER;
BEGIN
  DELETE FROM "imagery_word_ranks" r WHERE r."word" = ANY (terms);
  FOR i IN 1 .. coalesce(cardinality(terms), 0) LOOP
    INSERT INTO "imagery_word_ranks" ("word", "score", "imagery_id")
    SELECT terms[i], t.score, t.id
    FROM (
      SELECT c."id", lis_rank_score(c."address_norm", c."address_tsv", terms[i]) AS score
      FROM (
        SELECT m."id", m."address_norm", m."address_tsv"
        FROM "imagery" m
        WHERE m."address_tsv" @@ lis_term_tsquery(terms[i])
        ORDER BY starts_with(m."address_norm", rtrim(terms[i], '*')) DESC, length(m."address_norm"), m."id"
        LIMIT CASE WHEN matches[i] > list_size * 5 THEN list_size * 3 END
      ) c
      ORDER BY 2 DESC, 1
      LIMIT list_size
    ) t;
  END LOOP;
  INSERT INTO "imagery_word_lists" AS l ("word", "built_at")
  SELECT w.term, now() FROM unnest(terms) AS w(term)
  ON CONFLICT ("word") DO UPDATE SET "built_at" = EXCLUDED."built_at";
  RETURN cardinality(terms);
END $$;

--
-- Name: lis_clear_words(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.lis_clear_words() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
  TRUNCATE "imagery_words";
  RETURN NULL;
END $$;

--
-- Name: lis_count_words(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.lis_count_words() RETURNS trigger
    LANGUAGE plpgsql
    AS $_$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM lis_add_word_counts('{}', ARRAY(SELECT r."address_tsv" FROM new_rows r));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM lis_add_word_counts(ARRAY(SELECT o."address_tsv" FROM old_rows o), '{}');
  ELSE
    EXECUTE $sql$
      SELECT lis_add_word_counts(
        ARRAY(SELECT o."address_tsv"
              FROM old_rows o JOIN new_rows r ON r."id" = o."id" AND o."address_tsv" IS DISTINCT FROM r."address_tsv"),
        ARRAY(SELECT r."address_tsv"
              FROM new_rows r JOIN old_rows o ON o."id" = r."id" AND o."address_tsv" IS DISTINCT FROM r."address_tsv"))
    $sql$;
  END IF;
  RETURN NULL;
END $_$;

--
-- Name: lis_coverage_cell(integer, double precision, double precision); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.lis_coverage_cell(z integer, x double precision, y double precision) RETURNS public.lis_coverage_cell_xy
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$
  SELECT ROW(floor((x - -20037508.342789244::float8) / (40075016.685578488::float8 / (2 ^ z * 64)))::int,
             floor((20037508.342789244::float8 - y) / (40075016.685578488::float8 / (2 ^ z * 64)))::int)::lis_coverage_cell_xy
$$;

--
-- Name: lis_coverage_cell_box(integer, integer, integer); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.lis_coverage_cell_box(z integer, cx integer, cy integer) RETURNS public.geometry
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$
  SELECT ST_Expand(ST_MakeEnvelope(-20037508.342789244 + cx * s, 20037508.342789244 - (cy + 1) * s,
                                   -20037508.342789244 + (cx + 1) * s, 20037508.342789244 - cy * s, 3857), s / 64)
  FROM (SELECT 40075016.685578488::float8 / (2 ^ z * 64) AS s) g
$$;

--
-- Name: lis_coverage_cell_centre(integer, integer, integer); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.lis_coverage_cell_centre(z integer, cx integer, cy integer) RETURNS public.geometry
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$
  SELECT ST_Point(cx * (40075016.685578488::float8 / (2 ^ z * 64))
                    + (-20037508.342789244::float8 + 40075016.685578488::float8 / (2 ^ z * 64) / 2),
                  (2 ^ z * 64 - 1 - cy) * (40075016.685578488::float8 / (2 ^ z * 64))
                    + (-20037508.342789244::float8 + 40075016.685578488::float8 / (2 ^ z * 64) / 2), 3857)
$$;

--
-- Name: lis_coverage_low_zooms(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.lis_coverage_low_zooms() RETURNS bigint
    LANGUAGE plpgsql
    AS $_$
DECLARE
  added bigint;
BEGIN
  EXECUTE (
    SELECT format($sql$
      WITH z14 AS (
        SELECT cx, cy, sum(count)::int AS count
        FROM (SELECT (lis_coverage_cell(14, ST_X(geom), ST_Y(geom))).*, count FROM coverage_cells_next WHERE zoom = 15) c
        GROUP BY 1, 2)%1$s,
      low AS (%2$s)
      INSERT INTO coverage_cells_next (zoom, geom, count)
      SELECT zoom, lis_coverage_cell_centre(zoom, cx, cy), count
      FROM low$sql$,
      string_agg(format(', z%s AS (SELECT cx >> 1 AS cx, cy >> 1 AS cy, sum(count)::int AS count FROM z%s GROUP BY 1, 2)',
                        z, z + 1), '' ORDER BY z DESC) FILTER (WHERE z < 14),
      string_agg(format('SELECT %s AS zoom, cx, cy, count FROM z%s', z, z), ' UNION ALL ' ORDER BY z DESC))
    FROM generate_series(0, 14) z);
  GET DIAGNOSTICS added = ROW_COUNT;
  RETURN added;
END $_$;

--
-- Name: lis_coverage_next(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.lis_coverage_next() RETURNS void
    LANGUAGE plpgsql
    AS $$
BEGIN
  CREATE TABLE coverage_cells_next (LIKE coverage_cells INCLUDING ALL EXCLUDING INDEXES) PARTITION BY LIST (zoom);
  FOR z IN 0..16 LOOP
    EXECUTE format('CREATE TABLE %I PARTITION OF coverage_cells_next FOR VALUES IN (%s)', 'coverage_cells_next_z' || z, z);
  END LOOP;
END $$;

--
-- Name: lis_coverage_swap_in_next(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.lis_coverage_swap_in_next() RETURNS void
    LANGUAGE plpgsql
    AS $$
BEGIN
  FOR z IN 0..16 LOOP
    EXECUTE format('CREATE INDEX %I ON %I USING GIST (geom)', 'coverage_cells_next_z' || z || '_idx', 'coverage_cells_next_z' || z);
  END LOOP;
  PERFORM lis_swap_in_table('coverage_cells', 'coverage_cells_next');
  FOR z IN 0..16 LOOP
    EXECUTE format('ALTER TABLE %I RENAME TO %I', 'coverage_cells_next_z' || z, 'coverage_cells_z' || z);
    EXECUTE format('ALTER INDEX %I RENAME TO %I', 'coverage_cells_next_z' || z || '_idx', 'coverage_cells_z' || z || '_idx');
  END LOOP;
END $$;

--
-- Name: lis_map_data_changed(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.lis_map_data_changed() RETURNS bigint
    LANGUAGE sql
    AS $$
  UPDATE map_data_version SET version = version + 1, changed_at = now() WHERE id = 1 RETURNING version
$$;

--
-- Name: lis_merge_word_ranks(timestamp with time zone, timestamp with time zone, boolean, text[], integer); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.lis_merge_word_ranks(since_old timestamp with time zone, since_next timestamp with time zone, merge boolean, rebuilt text[], list_size integer) RETURNS integer
    LANGUAGE plpgsql
    AS $$
DECLARE
  touched TEXT[] := '{}';
BEGIN
  IF merge THEN
    CREATE TEMP TABLE IF NOT EXISTS lis_rank_changed (id UUID NOT NULL, address_norm TEXT, address_tsv TSVECTOR)
      ON COMMIT DROP;
    TRUNCATE lis_rank_changed;
    INSERT INTO lis_rank_changed
    SELECT i."id", i."address_norm", i."address_tsv" FROM "imagery" i WHERE i."updated_at" >= since_old;

    WITH added AS (
      INSERT INTO "imagery_word_ranks" ("word", "score", "imagery_id")
      SELECT k.term, lis_rank_score(i.address_norm, i.address_tsv, k.term), i.id
      FROM lis_rank_changed i
      CROSS JOIN LATERAL (
        SELECT DISTINCT x.term
        FROM unnest(tsvector_to_array(i.address_tsv)) AS w(word),
             LATERAL (SELECT w.word UNION ALL SELECT left(w.word, n) || '*' FROM generate_series(3, least(5, length(w.word))) AS n) x(term)
      ) k
      JOIN "imagery_word_lists" l ON l."word" = k.term
      WHERE NOT (k.term = ANY (rebuilt))
      ON CONFLICT DO NOTHING
      RETURNING "word"
    )
    SELECT coalesce(array_agg(DISTINCT a."word"), '{}') INTO touched FROM added a;

    DELETE FROM "imagery_word_ranks" r
    USING (
      SELECT x."word", x."score", x."imagery_id",
             row_number() OVER (PARTITION BY x."word" ORDER BY x."score" DESC, x."imagery_id") AS n
      FROM "imagery_word_ranks" x WHERE x."word" = ANY (touched)
    ) k
    WHERE k.n > list_size AND r."word" = k."word" AND r."score" = k."score" AND r."imagery_id" = k."imagery_id";
  END IF;

  INSERT INTO "imagery_word_ranks_state" AS s ("id", "since") VALUES (true, since_next)
  ON CONFLICT ("id") DO UPDATE SET "since" = EXCLUDED."since";
  RETURN cardinality(touched);
END $$;

--
-- Name: lis_normalize(text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.lis_normalize(input text) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    AS $$ SELECT lower(public.unaccent('public.unaccent'::regdictionary, input)) $$;

--
-- Name: lis_note_coverage_touched(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.lis_note_coverage_touched() RETURNS trigger
    LANGUAGE plpgsql
    AS $_$
BEGIN
  IF TG_OP = 'TRUNCATE' OR EXISTS (SELECT 1 FROM "imagery_first_load") THEN
    INSERT INTO "coverage_touched" ("location") VALUES (NULL);
  ELSIF TG_OP = 'INSERT' THEN
    INSERT INTO "coverage_touched" ("location") SELECT r."location" FROM new_rows r;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "coverage_touched" ("location") SELECT o."location" FROM old_rows o;
  ELSE
    EXECUTE $sql$
      INSERT INTO "coverage_touched" ("location")
      SELECT v.location
      FROM old_rows o JOIN new_rows r ON r."id" = o."id"
      CROSS JOIN LATERAL (VALUES (o."location"), (r."location")) AS v(location)
      WHERE (ST_X(o."location"), ST_Y(o."location"), o."captured_at", o."heading", o."interactive")
            IS DISTINCT FROM (ST_X(r."location"), ST_Y(r."location"), r."captured_at", r."heading", r."interactive")
    $sql$;
  END IF;
  RETURN NULL;
END $_$;

--
-- Name: lis_note_sequences_touched(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.lis_note_sequences_touched() RETURNS trigger
    LANGUAGE plpgsql
    AS $_$
BEGIN
  IF TG_OP = 'TRUNCATE' OR EXISTS (SELECT 1 FROM "imagery_first_load") THEN
    INSERT INTO "coverage_sequences_touched" ("sequence_id") VALUES (NULL);
  ELSIF TG_OP = 'INSERT' THEN
    INSERT INTO "coverage_sequences_touched" ("sequence_id") SELECT DISTINCT r."sequence_id" FROM new_rows r;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "coverage_sequences_touched" ("sequence_id") SELECT DISTINCT o."sequence_id" FROM old_rows o;
  ELSE
    -- Planned at every call, with the transition tables' real sizes (as lis_note_coverage_touched).
    EXECUTE $sql$
      INSERT INTO "coverage_sequences_touched" ("sequence_id")
      SELECT DISTINCT v.sequence_id
      FROM old_rows o JOIN new_rows r ON r."id" = o."id"
      CROSS JOIN LATERAL (VALUES (o."sequence_id"), (r."sequence_id")) AS v(sequence_id)
      WHERE (o."sequence_id", o."sequence_index") IS DISTINCT FROM (r."sequence_id", r."sequence_index")
    $sql$;
  END IF;
  RETURN NULL;
END $_$;

--
-- Name: lis_plan_word_ranks(integer, integer, integer); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.lis_plan_word_ranks(min_docs integer, prefix_min integer, list_size integer) RETURNS TABLE(since_old timestamp with time zone, since_next timestamp with time zone, merge boolean, terms text[], matches bigint[])
    LANGUAGE plpgsql
    AS $$
DECLARE
  changed BIGINT;
  total BIGINT;
  gone TEXT[];
BEGIN
  SELECT s."since" INTO since_old FROM "imagery_word_ranks_state" s;
  SELECT least(now(), min(a."xact_start")) INTO since_next FROM pg_stat_activity a WHERE a."datname" = current_database();

  CREATE TEMP TABLE IF NOT EXISTS lis_rank_terms (term TEXT PRIMARY KEY, matches BIGINT NOT NULL, listed BOOLEAN NOT NULL)
    ON COMMIT DROP;
  TRUNCATE lis_rank_terms;
  INSERT INTO lis_rank_terms
  SELECT v."word", v."docs", v."docs" >= min_docs FROM "imagery_words" v WHERE v."docs" >= min_docs / 2
  UNION ALL
  SELECT p.prefix || '*', p.matches, true
  FROM (
    SELECT left(v."word", n) AS prefix, sum(v."docs") AS matches, max(v."docs") AS commonest
    FROM "imagery_words" v, generate_series(3, 5) AS n
    WHERE length(v."word") >= n AND v."docs" > 0
    GROUP BY 1
  ) p
  WHERE p.matches >= prefix_min AND p.commonest * 3 < p.matches;

  SELECT coalesce(array_agg(l."word"), '{}') INTO gone
  FROM "imagery_word_lists" l WHERE NOT EXISTS (SELECT 1 FROM lis_rank_terms t WHERE t.term = l."word");
  DELETE FROM "imagery_word_lists" l WHERE l."word" = ANY (gone);
  DELETE FROM "imagery_word_ranks" r WHERE r."word" = ANY (gone);

  SELECT count(*) FILTER (WHERE since_old IS NULL OR i."updated_at" >= since_old), count(*)
  INTO changed, total FROM "imagery" i;
  merge := changed > 0 AND changed * 10 < total;

  -- A term in fewer addresses than list_size has them all: shorter than that, a list is not full.
  SELECT coalesce(array_agg(t.term ORDER BY t.matches DESC, t.term), '{}'),
         coalesce(array_agg(t.matches ORDER BY t.matches DESC, t.term), '{}')
  INTO terms, matches
  FROM lis_rank_terms t
  LEFT JOIN (SELECT r."word", count(*) AS n FROM "imagery_word_ranks" r GROUP BY r."word") r ON r."word" = t.term
  WHERE t.listed AND (changed * 10 >= total OR coalesce(r.n, 0) < least(list_size, t.matches));
  RETURN NEXT;
END $$;

--
-- Name: lis_plus_code(double precision, double precision); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.lis_plus_code(lat double precision, lon double precision) RETURNS text
    LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
    AS $$
DECLARE
  alphabet CONSTANT TEXT := '23456789CFGHJMPQRVWX';
  places CONSTANT DOUBLE PRECISION[] := ARRAY[20.0, 1.0, 0.05, 0.0025, 0.000125];
  a DOUBLE PRECISION := least(90.0, greatest(-90.0, lat));
  o DOUBLE PRECISION := lon;
  d INTEGER;
  code TEXT := '';
BEGIN
  IF o < -180 OR o >= 180 THEN o := o - 360.0 * floor((o + 180.0) / 360.0); END IF;
  IF a = 90 THEN a := a - 0.000125; END IF;
  a := a + 90.0;
  o := o + 180.0;
  FOR i IN 1..5 LOOP
    d := floor(a / places[i]);
    a := a - d * places[i];
    code := code || substr(alphabet, d + 1, 1);
    d := floor(o / places[i]);
    o := o - d * places[i];
    code := code || substr(alphabet, d + 1, 1);
    IF i = 4 THEN code := code || '+'; END IF;
  END LOOP;
  RETURN code;
END
$$;

--
-- Name: lis_rank_score(text, tsvector, text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.lis_rank_score(address_norm text, address_tsv tsvector, term text) RETURNS real
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$
  SELECT (similarity(address_norm, rtrim(term, '*'))
    + CASE WHEN address_norm = rtrim(term, '*') THEN 2 ELSE 0 END
    + CASE WHEN starts_with(address_norm, rtrim(term, '*')) THEN 0.5 ELSE 0 END
    + CASE WHEN right(term, 1) <> '*' OR address_tsv @@ to_tsquery('simple', quote_literal(rtrim(term, '*')))
        THEN 0.5 ELSE 0 END)::real
$$;

--
-- Name: lis_refresh_coverage(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.lis_refresh_coverage() RETURNS bigint
    LANGUAGE plpgsql
    AS $$
DECLARE
  cells bigint := 0;
  added bigint;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('lis_refresh_coverage'));
  -- Before the images are read: a location touched by a write that commits later stays for the next
  -- refresh (DELETE, not TRUNCATE: writers go on adding rows meanwhile).
  DELETE FROM coverage_touched;
  DELETE FROM coverage_sequences_touched;
  -- The images' sort in memory rather than in files (it takes about 150 bytes an image), and no JIT:
  -- PostGIS's function costs make every statement here look worth compiling, which took seconds.
  PERFORM set_config('work_mem', '512MB', true);
  PERFORM set_config('jit', 'off', true);
  PERFORM lis_coverage_next();
  -- Cells by their whole-number column and row (a sort on numbers, not geometries), in the grid's order
  -- row by row: a tile's cells lie together on disk. The count's window is in the same order as the
  -- rows, so that the images are sorted once.
  INSERT INTO coverage_cells_next (zoom, geom, count, image_id, heading, interactive, captured_at)
  SELECT DISTINCT ON (cy, cx) 16, p, count(*) OVER (PARTITION BY cy, cx ORDER BY captured_at DESC, id ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING),
         id, heading, interactive, captured_at
  FROM (SELECT (lis_coverage_cell(16, ST_X(q.p), ST_Y(q.p))).*, q.*
        FROM (SELECT ST_Transform(location, 3857) AS p, id, heading, interactive, captured_at FROM imagery) q) i
  ORDER BY cy, cx, captured_at DESC, id;
  GET DIAGNOSTICS added = ROW_COUNT;
  cells := cells + added;
  INSERT INTO coverage_cells_next (zoom, geom, count, image_id, heading, interactive, captured_at)
  SELECT DISTINCT ON (cy, cx) 15, geom,
         sum(count) OVER (PARTITION BY cy, cx ORDER BY captured_at DESC, image_id ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING),
         image_id, heading, interactive, captured_at
  FROM (SELECT (lis_coverage_cell(15, ST_X(geom), ST_Y(geom))).*, c.*
        FROM coverage_cells_next c WHERE zoom = 16) i
  ORDER BY cy, cx, captured_at DESC, image_id;
  GET DIAGNOSTICS added = ROW_COUNT;
  cells := cells + lis_coverage_low_zooms() + added;
  PERFORM lis_coverage_swap_in_next();
  PERFORM lis_write_coverage_sequences(NULL);
  PERFORM lis_map_data_changed();
  RETURN cells;
END $$;

--
-- Name: lis_refresh_place_terms(integer, integer, boolean); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.lis_refresh_place_terms(min_places integer, list_size integer, force boolean DEFAULT false) RETURNS integer
    LANGUAGE plpgsql
    SET client_min_messages TO 'warning'
    AS $_$
DECLARE
  t RECORD;
  built INTEGER := 0;
  seen_places BIGINT;
  seen_change TIMESTAMPTZ;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('lis_refresh_place_terms'));
  SELECT count(*), max(p.updated_at) INTO seen_places, seen_change FROM places p;
  IF NOT force AND EXISTS (
    SELECT 1 FROM place_term_state s
    WHERE s.places = seen_places AND s.last_change IS NOT DISTINCT FROM seen_change
      AND s.min_places = lis_refresh_place_terms.min_places AND s.list_size = lis_refresh_place_terms.list_size
  ) THEN
    RETURN NULL;
  END IF;
  DELETE FROM place_term_ranks;
  DELETE FROM place_term_lists;
  FOR t IN
    SELECT left(w.word, n) AS term, sum(w.ndoc)::int AS places
    FROM ts_stat($q$SELECT p.search_tsv FROM places p
                   WHERE (p.kind <> 'address' OR p.name !~ '[0-9]' OR p.alt_names <> '')
                     AND p.kind IN ('locality', 'postcode', 'street', 'address', 'poi')$q$) w
    CROSS JOIN LATERAL generate_series(1, length(w.word)) n
    GROUP BY 1
    HAVING sum(w.ndoc) >= lis_refresh_place_terms.min_places
  LOOP
    INSERT INTO place_term_ranks (term, importance, place_id)
    SELECT t.term, p.importance, p.id FROM places p
    WHERE p.search_tsv @@ to_tsquery('simple', quote_literal(t.term) || ':*')
      AND (p.kind <> 'address' OR p.name !~ '[0-9]' OR p.alt_names <> '')
      AND p.kind IN ('locality', 'postcode', 'street', 'address', 'poi')
    ORDER BY p.importance DESC, p.id
    LIMIT lis_refresh_place_terms.list_size;
    INSERT INTO place_term_lists (term, places) VALUES (t.term, t.places);
    built := built + 1;
  END LOOP;
  INSERT INTO place_term_state (places, last_change, min_places, list_size, built_at)
  VALUES (seen_places, seen_change, lis_refresh_place_terms.min_places, lis_refresh_place_terms.list_size, now())
  ON CONFLICT (id) DO UPDATE SET places = EXCLUDED.places, last_change = EXCLUDED.last_change,
    min_places = EXCLUDED.min_places, list_size = EXCLUDED.list_size, built_at = EXCLUDED.built_at;
  RETURN built;
END
$_$;

--
-- Name: lis_search_text(text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.lis_search_text(input text) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    AS $$
  SELECT regexp_replace(public.lis_normalize(input),
    '[\u0021-\u002f\u003a-\u0040\u005b-\u0060\u007b-\u007e\u0080-\u00a9\u00ab-\u00b1\u00b4\u00b6-\u00b8\u00bb\u00bf\u00d7\u00f7\u02c2-\u02c5\u02d2-\u02df\u02e5-\u02eb\u02ed\u02ef-\u02ff\u0375\u037e\u0384-\u0385\u0387\u03f6\u0482\u055a-\u055f\u0589-\u058f\u05be\u05c0\u05c3\u05c6\u05f3-\u060f\u061b-\u061f\u066a-\u066d\u06d4\u06dd-\u06de\u06e9\u06fd-\u06fe\u0700-\u070f\u07f6-\u07f9\u07fe-\u07ff\u0830-\u083e\u085e\u0888\u0890-\u0891\u08e2\u0964-\u0965\u0970\u09f2-\u09f3\u09fa-\u09fb\u09fd\u0a76\u0af0-\u0af1\u0b70\u0bf3-\u0bfa\u0c77\u0c7f\u0c84\u0d4f\u0d79\u0df4\u0e3f\u0e4f\u0e5a-\u0e5b\u0f01-\u0f17\u0f1a-\u0f1f\u0f34\u0f36\u0f38\u0f3a-\u0f3d\u0f85\u0fbe-\u0fc5\u0fc7-\u0fda\u104a-\u104f\u109e-\u109f\u10fb\u1360-\u1368\u1390-\u1399\u1400\u166d-\u166e\u1680\u169b-\u169c\u16eb-\u16ed\u1735-\u1736\u17d4-\u17d6\u17d8-\u17db\u1800-\u180a\u180e\u1940-\u1945\u19de-\u19ff\u1a1e-\u1a1f\u1aa0-\u1aa6\u1aa8-\u1aad\u1b4e-\u1b4f\u1b5a-\u1b6a\u1b74-\u1b7f\u1bfc-\u1bff\u1c3b-\u1c3f\u1c7e-\u1c7f\u1cc0-\u1cc7\u1cd3\u1fbd\u1fbf-\u1fc1\u1fcd-\u1fcf\u1fdd-\u1fdf\u1fed-\u1fef\u1ffd-\u206f\u207a-\u207e\u208a-\u208e\u20a0-\u20c1\u2100-\u2101\u2103-\u2106\u2108-\u2109\u2114\u2116-\u2118\u211e-\u2123\u2125\u2127\u2129\u212e\u213a-\u213b\u2140-\u2144\u214a-\u214d\u214f\u218a-\u244a\u249c-\u24e9\u2500-\u2775\u2794-\u2bff\u2ce5-\u2cea\u2cf9-\u2cfc\u2cfe-\u2cff\u2d70\u2e00-\u2e2e\u2e30-\u3004\u3008-\u3020\u3030\u3036-\u3037\u303d-\u303f\u309b-\u309c\u30a0\u30fb\u3190-\u3191\u3196-\u319f\u31c0-\u31ef\u3200-\u321e\u322a-\u3247\u3250\u3260-\u327f\u328a-\u32b0\u32c0-\u33ff\u4dc0-\u4dff\ua490-\ua4c6\ua4fe-\ua4ff\ua60d-\ua60f\ua673\ua67e\ua6f2-\ua716\ua720-\ua721\ua789-\ua78a\ua828-\ua82b\ua836-\ua839\ua874-\ua877\ua8ce-\ua8cf\ua8f8-\ua8fa\ua8fc\ua92e-\ua92f\ua95f\ua9c1-\ua9cd\ua9de-\ua9df\uaa5c-\uaa5f\uaa77-\uaa79\uaade-\uaadf\uaaf0-\uaaf1\uab5b\uab6a-\uab6b\uabeb\ue000-\uf8ff\ufb29\ufbb2-\ufbd2\ufd3e-\ufd4f\ufd90-\ufd91\ufdc8-\ufdcf\ufdfc-\ufdff\ufe10-\ufe19\ufe30-\ufe6b\ufeff-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff65\uffe0-\ufffd\U00010100-\U00010102\U00010137-\U0001013f\U00010179-\U00010189\U0001018c-\U000101fc\U0001039f\U000103d0\U0001056f\U00010857\U00010877-\U00010878\U0001091f\U0001093f\U00010a50-\U00010a58\U00010a7f\U00010ac8\U00010af0-\U00010af6\U00010b39-\U00010b3f\U00010b99-\U00010b9c\U00010d6e\U00010d8e-\U00010d8f\U00010ead\U00010ed0-\U00010ed8\U00010f55-\U00010f59\U00010f86-\U00010f89\U00011047-\U0001104d\U000110bb-\U000110c1\U000110cd\U00011140-\U00011143\U00011174-\U00011175\U000111c5-\U000111c8\U000111cd\U000111db\U000111dd-\U000111df\U00011238-\U0001123d\U000112a9\U000113d4-\U000113d8\U0001144b-\U0001144f\U0001145a-\U0001145d\U000114c6\U000115c1-\U000115d7\U00011641-\U00011643\U00011660-\U0001166c\U000116b9\U0001173c-\U0001173f\U0001183b\U00011944-\U00011946\U000119e2\U00011a3f-\U00011a46\U00011a9a-\U00011a9c\U00011a9e-\U00011aa2\U00011b00-\U00011b09\U00011be1\U00011c41-\U00011c45\U00011c70-\U00011c71\U00011ef7-\U00011ef8\U00011f43-\U00011f4f\U00011fd5-\U00011fff\U00012470-\U00012474\U00012ff1-\U00012ff2\U00013430-\U0001343f\U00016a6e-\U00016a6f\U00016af5\U00016b37-\U00016b3f\U00016b44-\U00016b45\U00016d6d-\U00016d6f\U00016e97-\U00016e9a\U00016fe2\U0001bc9c\U0001bc9f-\U0001ccef\U0001ccfa-\U0001cef0\U0001cf50-\U0001d164\U0001d16a-\U0001d16c\U0001d173-\U0001d17a\U0001d183-\U0001d184\U0001d18c-\U0001d1a9\U0001d1ae-\U0001d241\U0001d245\U0001d300-\U0001d356\U0001d6c1\U0001d6db\U0001d6fb\U0001d715\U0001d735\U0001d74f\U0001d76f\U0001d789\U0001d7a9\U0001d7c3\U0001d800-\U0001d9ff\U0001da37-\U0001da3a\U0001da6d-\U0001da74\U0001da76-\U0001da83\U0001da85-\U0001da8b\U0001e14f\U0001e2ff\U0001e5ff\U0001e95e-\U0001e95f\U0001ecac\U0001ecb0\U0001ed2e\U0001eef0-\U0001f0f5\U0001f10d-\U0001fbef\U0001fbfa\U000e0001-\U000e007f\U000f0000-\U0010fffd]',
    ' ', 'g')
$$;

--
-- Name: lis_swap_in_table(regclass, regclass); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.lis_swap_in_table(live regclass, next regclass) RETURNS void
    LANGUAGE plpgsql
    AS $_$
DECLARE
  live_name text;
  schema_name text;
  names text[] := '{}';
  built text[] := '{}';
  i record;
  g record;
  p record;
BEGIN
  SELECT c.relname, n.nspname INTO live_name, schema_name
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = live;
  IF EXISTS (SELECT 1 FROM pg_constraint WHERE conrelid = live AND conindid <> 0) THEN
    RAISE EXCEPTION 'lis_swap_in_table: % has an index that backs a constraint', live;
  END IF;
  FOR i IN SELECT c.relname AS name, x.indisunique AS is_unique, pg_get_indexdef(x.indexrelid) AS def
           FROM pg_index x JOIN pg_class c ON c.oid = x.indexrelid WHERE x.indrelid = live ORDER BY c.relname LOOP
    names := names || i.name;
    built := built || (live_name || '_swap_' || cardinality(names));
    EXECUTE format('CREATE %sINDEX %I ON %s %s', CASE WHEN i.is_unique THEN 'UNIQUE ' ELSE '' END,
                   built[cardinality(built)], next, substring(i.def FROM ' USING .*$'));
  END LOOP;
  FOR g IN SELECT a.grantee, a.privilege_type, a.is_grantable
           FROM pg_class c CROSS JOIN LATERAL aclexplode(c.relacl) a
           WHERE c.oid = live AND a.grantee <> c.relowner LOOP
    EXECUTE format('GRANT %s ON %s TO %s%s', g.privilege_type, next,
                   CASE WHEN g.grantee = 0 THEN 'PUBLIC' ELSE g.grantee::regrole::text END,
                   CASE WHEN g.is_grantable THEN ' WITH GRANT OPTION' ELSE '' END);
  END LOOP;
  IF EXISTS (SELECT 1 FROM pg_partitioned_table WHERE partrelid = next) THEN
    FOR p IN SELECT relid FROM pg_partition_tree(next) WHERE isleaf LOOP
      EXECUTE format('ANALYZE %s', p.relid::regclass);
    END LOOP;
  ELSE
    EXECUTE format('ANALYZE %s', next);
  END IF;
  EXECUTE format('DROP TABLE %s', live);
  EXECUTE format('ALTER TABLE %s RENAME TO %I', next, live_name);
  FOR k IN 1..cardinality(names) LOOP
    EXECUTE format('ALTER INDEX %I.%I RENAME TO %I', schema_name, built[k], names[k]);
  END LOOP;
END $_$;

--
-- Name: lis_term_tsquery(text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.lis_term_tsquery(term text) RETURNS tsquery
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$
  SELECT to_tsquery('simple', quote_literal(rtrim(term, '*')) || CASE WHEN right(term, 1) = '*' THEN ':*' ELSE '' END)
$$;

--
-- Name: lis_unrank_all(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.lis_unrank_all() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
  TRUNCATE "imagery_word_ranks", "imagery_word_lists", "imagery_word_ranks_state";
  RETURN NULL;
END $$;

--
-- Name: lis_unrank_deleted(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.lis_unrank_deleted() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
  DELETE FROM "imagery_word_ranks" r USING old_rows o WHERE r."imagery_id" = o."id";
  RETURN NULL;
END $$;

--
-- Name: lis_unrank_readdressed(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.lis_unrank_readdressed() RETURNS trigger
    LANGUAGE plpgsql
    AS $_$
BEGIN
  EXECUTE $sql$
    DELETE FROM "imagery_word_ranks" r
    USING old_rows o JOIN new_rows n ON n."id" = o."id" AND o."address_tsv" IS DISTINCT FROM n."address_tsv"
    WHERE r."imagery_id" = o."id"
  $sql$;
  RETURN NULL;
END $_$;

--
-- Name: lis_update_coverage(double precision); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.lis_update_coverage(full_above double precision DEFAULT 0.02, OUT rebuilt boolean, OUT cells bigint) RETURNS record
    LANGUAGE plpgsql
    AS $$
DECLARE
  touched bigint;
  sequences bigint;
  catalogue float8;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('lis_refresh_coverage'));
  PERFORM set_config('jit', 'off', true);
  CREATE TEMPORARY TABLE coverage_touched_now ON COMMIT DROP AS SELECT location FROM coverage_touched WHERE false;
  WITH taken AS (DELETE FROM coverage_touched RETURNING location)
  INSERT INTO coverage_touched_now SELECT location FROM taken;
  GET DIAGNOSTICS touched = ROW_COUNT;
  CREATE TEMPORARY TABLE coverage_sequences_touched_now ON COMMIT DROP AS
  SELECT sequence_id FROM coverage_sequences_touched WHERE false;
  WITH taken AS (DELETE FROM coverage_sequences_touched RETURNING sequence_id)
  INSERT INTO coverage_sequences_touched_now SELECT sequence_id FROM taken;
  GET DIAGNOSTICS sequences = ROW_COUNT;
  -- The zoom 16 cells touched.
  CREATE TEMPORARY TABLE coverage_keys ON COMMIT DROP AS
  SELECT DISTINCT (lis_coverage_cell(16, ST_X(p), ST_Y(p))).*
  FROM (SELECT ST_Transform(location, 3857) AS p FROM coverage_touched_now WHERE location IS NOT NULL) t;
  SELECT coalesce(sum(count), 0) INTO catalogue FROM coverage_cells WHERE zoom = 0;
  -- The built-in database (PGlite) rebuilds always: its PostGIS fails to estimate a join on `&&`
  -- ("invalid join selectivity"), which every step here is; it holds small catalogues.
  rebuilt := touched > 0 AND (EXISTS (SELECT 1 FROM coverage_touched_now WHERE location IS NULL)
                              OR catalogue = 0 OR (SELECT count(*) FROM coverage_keys) > full_above * catalogue
                              OR version() LIKE '%PGlite%');
  cells := 0;
  IF rebuilt THEN
    DROP TABLE coverage_keys;
    cells := lis_refresh_coverage();
  ELSIF touched > 0 THEN
    ANALYZE coverage_keys;
    CREATE TEMPORARY TABLE coverage_changed (geom geometry, delta bigint) ON COMMIT DROP;
    cells := lis_update_coverage_16();
    IF EXISTS (SELECT 1 FROM coverage_changed) THEN
      cells := cells + lis_update_coverage_15();
    END IF;
    FOR z IN REVERSE 14..0 LOOP
      EXIT WHEN NOT EXISTS (SELECT 1 FROM coverage_changed);
      cells := cells + lis_update_coverage_low(z);
    END LOOP;
    DROP TABLE coverage_changed;
  ELSE
    DROP TABLE coverage_keys;
  END IF;
  IF NOT rebuilt AND (touched > 0 OR sequences > 0) THEN
    PERFORM lis_update_coverage_sequences();
    PERFORM lis_map_data_changed();
  END IF;
  DROP TABLE coverage_touched_now;
  DROP TABLE coverage_sequences_touched_now;
END $$;

--
-- Name: lis_update_coverage_15(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.lis_update_coverage_15() RETURNS bigint
    LANGUAGE plpgsql
    AS $$
BEGIN
  CREATE TEMPORARY TABLE coverage_keys ON COMMIT DROP AS
  SELECT DISTINCT (lis_coverage_cell(15, ST_X(geom), ST_Y(geom))).*
  FROM coverage_changed;
  ANALYZE coverage_keys;
  CREATE TEMPORARY TABLE coverage_new ON COMMIT DROP AS
  SELECT DISTINCT ON (i.cy, i.cx) i.cx::float8 AS kx, i.cy::float8 AS ky, i.geom,
         sum(i.count) OVER (PARTITION BY i.cy, i.cx) AS count, i.image_id, i.heading, i.interactive, i.captured_at
  FROM coverage_keys k CROSS JOIN LATERAL (
    SELECT (lis_coverage_cell(15, ST_X(c.geom), ST_Y(c.geom))).*, c.*
    FROM coverage_cells c WHERE c.zoom = 16 AND c.geom && lis_coverage_cell_box(15, k.cx, k.cy)) i
  WHERE i.cx = k.cx AND i.cy = k.cy
  ORDER BY i.cy, i.cx, i.captured_at DESC, i.image_id;
  CREATE TEMPORARY TABLE coverage_old ON COMMIT DROP AS
  SELECT c.ctid AS row_id, k.cx::float8 AS kx, k.cy::float8 AS ky, c.geom, c.count, c.image_id, c.heading,
         c.interactive, c.captured_at
  FROM coverage_keys k CROSS JOIN LATERAL (
    SELECT c.ctid, (lis_coverage_cell(15, ST_X(c.geom), ST_Y(c.geom))).*, c.*
    FROM coverage_cells c WHERE c.zoom = 15 AND c.geom && lis_coverage_cell_box(15, k.cx, k.cy)) c
  WHERE c.cx = k.cx AND c.cy = k.cy;
  DROP TABLE coverage_keys;
  RETURN lis_apply_coverage_cells(15);
END $$;

--
-- Name: lis_update_coverage_16(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.lis_update_coverage_16() RETURNS bigint
    LANGUAGE plpgsql
    AS $$
BEGIN
  CREATE TEMPORARY TABLE coverage_new ON COMMIT DROP AS
  SELECT DISTINCT ON (i.cy, i.cx) i.cx::float8 AS kx, i.cy::float8 AS ky, i.p AS geom,
         count(*) OVER (PARTITION BY i.cy, i.cx) AS count, i.id AS image_id, i.heading, i.interactive, i.captured_at
  FROM coverage_keys k CROSS JOIN LATERAL (
    SELECT (lis_coverage_cell(16, ST_X(q.p), ST_Y(q.p))).*, q.*
    FROM (SELECT ST_Transform(m.location, 3857) AS p, m.id, m.heading, m.interactive, m.captured_at
          FROM imagery m WHERE m.location && ST_Transform(lis_coverage_cell_box(16, k.cx, k.cy), 4326)) q) i
  WHERE i.cx = k.cx AND i.cy = k.cy
  ORDER BY i.cy, i.cx, i.captured_at DESC, i.id;
  CREATE TEMPORARY TABLE coverage_old ON COMMIT DROP AS
  SELECT c.ctid AS row_id, k.cx::float8 AS kx, k.cy::float8 AS ky, c.geom, c.count, c.image_id, c.heading,
         c.interactive, c.captured_at
  FROM coverage_keys k CROSS JOIN LATERAL (
    SELECT c.ctid, (lis_coverage_cell(16, ST_X(c.geom), ST_Y(c.geom))).*, c.*
    FROM coverage_cells c WHERE c.zoom = 16 AND c.geom && lis_coverage_cell_box(16, k.cx, k.cy)) c
  WHERE c.cx = k.cx AND c.cy = k.cy;
  DROP TABLE coverage_keys;
  RETURN lis_apply_coverage_cells(16);
END $$;

--
-- Name: lis_update_coverage_low(integer); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.lis_update_coverage_low(z integer) RETURNS bigint
    LANGUAGE plpgsql
    AS $_$
BEGIN
  CREATE TEMPORARY TABLE coverage_keys ON COMMIT DROP AS
  SELECT ST_X(p) AS kx, ST_Y(p) AS ky, p, delta
  FROM (SELECT lis_coverage_cell_centre(z, cx, cy) AS p, sum(delta) AS delta
        FROM (SELECT (lis_coverage_cell(z, ST_X(geom), ST_Y(geom))).*, delta FROM coverage_changed) c
        GROUP BY cx, cy HAVING sum(delta) <> 0) d;
  ANALYZE coverage_keys;
  EXECUTE format($sql$
    CREATE TEMPORARY TABLE coverage_old ON COMMIT DROP AS
    SELECT c.ctid AS row_id, k.kx, k.ky, c.geom, c.count, c.image_id, c.heading, c.interactive, c.captured_at
    FROM coverage_keys k JOIN coverage_cells c
      ON c.zoom = %s AND c.geom && k.p AND ST_X(c.geom) = k.kx AND ST_Y(c.geom) = k.ky$sql$, z);
  CREATE TEMPORARY TABLE coverage_new ON COMMIT DROP AS
  SELECT k.kx, k.ky, k.p AS geom, coalesce(o.count, 0) + k.delta AS count, NULL::uuid AS image_id,
         NULL::float8 AS heading, NULL::boolean AS interactive, NULL::date AS captured_at
  FROM coverage_keys k LEFT JOIN coverage_old o ON o.kx = k.kx AND o.ky = k.ky
  WHERE coalesce(o.count, 0) + k.delta > 0;
  DROP TABLE coverage_keys;
  RETURN lis_apply_coverage_cells(z);
END $_$;

--
-- Name: lis_update_coverage_sequences(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.lis_update_coverage_sequences() RETURNS bigint
    LANGUAGE plpgsql
    AS $$
BEGIN
  IF version() LIKE '%PGlite%' OR EXISTS (SELECT 1 FROM coverage_sequences_touched_now WHERE sequence_id IS NULL) THEN
    RETURN lis_write_coverage_sequences(NULL);
  END IF;
  RETURN lis_write_coverage_sequences(ARRAY(
    SELECT t.sequence_id FROM coverage_sequences_touched_now t
    UNION
    SELECT p.sequence_id
    FROM coverage_touched_now t
    CROSS JOIN LATERAL (SELECT m.id FROM imagery m WHERE m.location && t.location) i
    JOIN photos p ON p.id = i.id
    WHERE t.location IS NOT NULL
    UNION
    SELECT s.sequence_id
    FROM coverage_touched_now t
    CROSS JOIN LATERAL (SELECT c.sequence_id FROM coverage_sequences c
                        WHERE c.geom && ST_Expand(ST_Transform(t.location, 3857), 1)) s
    WHERE t.location IS NOT NULL));
END $$;

--
-- Name: lis_vocabulary_word(text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.lis_vocabulary_word(word text) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $_$
  SELECT length(word) BETWEEN 2 AND 64 AND (word !~ '[^[:alpha:]]' OR word ~ '^[0-9]+(st|nd|rd|th)$')
$_$;

--
-- Name: lis_write_coverage_sequences(uuid[]); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.lis_write_coverage_sequences(sequences uuid[]) RETURNS bigint
    LANGUAGE plpgsql
    AS $$
DECLARE
  written bigint;
BEGIN
  IF sequences IS NULL THEN
    DELETE FROM coverage_sequences;
    INSERT INTO coverage_sequences (sequence_id, geom, count, captured_at, interactive)
    SELECT sequence_id, geom, count, captured_at, interactive FROM coverage_sequence_lines;
  ELSE
    DELETE FROM coverage_sequences WHERE sequence_id = ANY(sequences);
    INSERT INTO coverage_sequences (sequence_id, geom, count, captured_at, interactive)
    SELECT sequence_id, geom, count, captured_at, interactive FROM coverage_sequence_lines
    WHERE sequence_id = ANY(sequences);
  END IF;
  GET DIAGNOSTICS written = ROW_COUNT;
  RETURN written;
END $$;

SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: _prisma_migrations; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public._prisma_migrations (
    id character varying(36) NOT NULL,
    checksum character varying(64) NOT NULL,
    finished_at timestamp with time zone,
    migration_name character varying(255) NOT NULL,
    logs text,
    rolled_back_at timestamp with time zone,
    started_at timestamp with time zone DEFAULT now() NOT NULL,
    applied_steps_count integer DEFAULT 0 NOT NULL
);

--
-- Name: api_keys; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.api_keys (
    id uuid NOT NULL,
    name text NOT NULL,
    prefix text NOT NULL,
    key_hash text NOT NULL,
    created_at timestamp(6) with time zone DEFAULT CURRENT_TIMESTAMP NOT NULL,
    revoked_at timestamp(6) with time zone,
    last_used_at timestamp(6) with time zone,
    rate_limit integer,
    CONSTRAINT api_keys_rate_limit_check CHECK (((rate_limit IS NULL) OR ((rate_limit >= 1) AND (rate_limit <= 100000))))
);

--
-- Name: coverage_cells; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.coverage_cells (
    zoom smallint NOT NULL,
    geom public.geometry(Point,3857) NOT NULL,
    count integer NOT NULL,
    image_id uuid,
    heading double precision,
    interactive boolean,
    captured_at date
)
PARTITION BY LIST (zoom);

--
-- Name: coverage_cells_z0; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.coverage_cells_z0 (
    zoom smallint NOT NULL,
    geom public.geometry(Point,3857) NOT NULL,
    count integer NOT NULL,
    image_id uuid,
    heading double precision,
    interactive boolean,
    captured_at date
);

--
-- Name: coverage_cells_z1; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.coverage_cells_z1 (
    zoom smallint NOT NULL,
    geom public.geometry(Point,3857) NOT NULL,
    count integer NOT NULL,
    image_id uuid,
    heading double precision,
    interactive boolean,
    captured_at date
);

--
-- Name: coverage_cells_z10; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.coverage_cells_z10 (
    zoom smallint NOT NULL,
    geom public.geometry(Point,3857) NOT NULL,
    count integer NOT NULL,
    image_id uuid,
    heading double precision,
    interactive boolean,
    captured_at date
);

--
-- Name: coverage_cells_z11; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.coverage_cells_z11 (
    zoom smallint NOT NULL,
    geom public.geometry(Point,3857) NOT NULL,
    count integer NOT NULL,
    image_id uuid,
    heading double precision,
    interactive boolean,
    captured_at date
);

--
-- Name: coverage_cells_z12; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.coverage_cells_z12 (
    zoom smallint NOT NULL,
    geom public.geometry(Point,3857) NOT NULL,
    count integer NOT NULL,
    image_id uuid,
    heading double precision,
    interactive boolean,
    captured_at date
);

--
-- Name: coverage_cells_z13; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.coverage_cells_z13 (
    zoom smallint NOT NULL,
    geom public.geometry(Point,3857) NOT NULL,
    count integer NOT NULL,
    image_id uuid,
    heading double precision,
    interactive boolean,
    captured_at date
);

--
-- Name: coverage_cells_z14; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.coverage_cells_z14 (
    zoom smallint NOT NULL,
    geom public.geometry(Point,3857) NOT NULL,
    count integer NOT NULL,
    image_id uuid,
    heading double precision,
    interactive boolean,
    captured_at date
);

--
-- Name: coverage_cells_z15; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.coverage_cells_z15 (
    zoom smallint NOT NULL,
    geom public.geometry(Point,3857) NOT NULL,
    count integer NOT NULL,
    image_id uuid,
    heading double precision,
    interactive boolean,
    captured_at date
);

--
-- Name: coverage_cells_z16; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.coverage_cells_z16 (
    zoom smallint NOT NULL,
    geom public.geometry(Point,3857) NOT NULL,
    count integer NOT NULL,
    image_id uuid,
    heading double precision,
    interactive boolean,
    captured_at date
);

--
-- Name: coverage_cells_z2; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.coverage_cells_z2 (
    zoom smallint NOT NULL,
    geom public.geometry(Point,3857) NOT NULL,
    count integer NOT NULL,
    image_id uuid,
    heading double precision,
    interactive boolean,
    captured_at date
);

--
-- Name: coverage_cells_z3; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.coverage_cells_z3 (
    zoom smallint NOT NULL,
    geom public.geometry(Point,3857) NOT NULL,
    count integer NOT NULL,
    image_id uuid,
    heading double precision,
    interactive boolean,
    captured_at date
);

--
-- Name: coverage_cells_z4; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.coverage_cells_z4 (
    zoom smallint NOT NULL,
    geom public.geometry(Point,3857) NOT NULL,
    count integer NOT NULL,
    image_id uuid,
    heading double precision,
    interactive boolean,
    captured_at date
);

--
-- Name: coverage_cells_z5; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.coverage_cells_z5 (
    zoom smallint NOT NULL,
    geom public.geometry(Point,3857) NOT NULL,
    count integer NOT NULL,
    image_id uuid,
    heading double precision,
    interactive boolean,
    captured_at date
);

--
-- Name: coverage_cells_z6; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.coverage_cells_z6 (
    zoom smallint NOT NULL,
    geom public.geometry(Point,3857) NOT NULL,
    count integer NOT NULL,
    image_id uuid,
    heading double precision,
    interactive boolean,
    captured_at date
);

--
-- Name: coverage_cells_z7; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.coverage_cells_z7 (
    zoom smallint NOT NULL,
    geom public.geometry(Point,3857) NOT NULL,
    count integer NOT NULL,
    image_id uuid,
    heading double precision,
    interactive boolean,
    captured_at date
);

--
-- Name: coverage_cells_z8; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.coverage_cells_z8 (
    zoom smallint NOT NULL,
    geom public.geometry(Point,3857) NOT NULL,
    count integer NOT NULL,
    image_id uuid,
    heading double precision,
    interactive boolean,
    captured_at date
);

--
-- Name: coverage_cells_z9; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.coverage_cells_z9 (
    zoom smallint NOT NULL,
    geom public.geometry(Point,3857) NOT NULL,
    count integer NOT NULL,
    image_id uuid,
    heading double precision,
    interactive boolean,
    captured_at date
);

--
-- Name: imagery; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.imagery (
    id uuid NOT NULL,
    address text NOT NULL,
    address_norm text GENERATED ALWAYS AS (public.lis_normalize(address)) STORED,
    captured_at date NOT NULL,
    heading double precision,
    interactive boolean DEFAULT false NOT NULL,
    image_url text NOT NULL,
    location public.geometry(Point,4326) NOT NULL,
    source text,
    created_at timestamp(6) with time zone DEFAULT CURRENT_TIMESTAMP NOT NULL,
    updated_at timestamp(6) with time zone DEFAULT CURRENT_TIMESTAMP NOT NULL,
    address_code text GENERATED ALWAYS AS (
CASE
    WHEN ((length(address) <= 64) AND (address ~ '^[A-Za-z0-9]+([-_./ ][A-Za-z0-9]+)*$'::text) AND ((address !~ '[a-z]'::text) OR ((address !~ ' '::text) AND (address ~ '[0-9]'::text)))) THEN lower(regexp_replace(address, '[^A-Za-z0-9]'::text, ''::text, 'g'::text))
    ELSE NULL::text
END) STORED,
    address_origin text DEFAULT 'own'::text NOT NULL,
    place_id uuid,
    locality_id uuid,
    region_code text,
    country_code text,
    address_tsv tsvector GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, public.lis_search_text(address))) STORED,
    CONSTRAINT imagery_address_check CHECK ((length(address) > 0)),
    CONSTRAINT imagery_address_origin_check CHECK ((address_origin = ANY (ARRAY['own'::text, 'address'::text, 'street'::text, 'locality'::text, 'plus_code'::text]))),
    CONSTRAINT imagery_heading_check CHECK (((heading >= (0)::double precision) AND (heading < (360)::double precision)))
);

--
-- Name: photos; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.photos (
    id uuid NOT NULL,
    content_hash text NOT NULL,
    bytes bigint NOT NULL,
    captured_time text NOT NULL,
    time_zone text,
    offset_origin text NOT NULL,
    make text,
    model text,
    width integer NOT NULL,
    height integer NOT NULL,
    orientation smallint,
    projection text NOT NULL,
    panorama jsonb,
    altitude double precision,
    horizontal_accuracy double precision,
    heading_origin text NOT NULL,
    heading_reference text,
    position_origin text NOT NULL,
    sequence_id uuid NOT NULL,
    sequence_index integer NOT NULL,
    CONSTRAINT photos_bytes_check CHECK ((bytes > 0)),
    CONSTRAINT photos_content_hash_check CHECK ((content_hash ~ '^[0-9a-f]{64}$'::text)),
    CONSTRAINT photos_heading_origin_check CHECK ((heading_origin = ANY (ARRAY['exif'::text, 'track'::text, 'sequence'::text, 'none'::text]))),
    CONSTRAINT photos_heading_reference_check CHECK ((heading_reference = ANY (ARRAY['true'::text, 'magnetic'::text]))),
    CONSTRAINT photos_height_check CHECK ((height > 0)),
    CONSTRAINT photos_offset_origin_check CHECK ((offset_origin = ANY (ARRAY['exif'::text, 'position'::text]))),
    CONSTRAINT photos_position_origin_check CHECK ((position_origin = ANY (ARRAY['exif'::text, 'track'::text]))),
    CONSTRAINT photos_projection_check CHECK ((projection = ANY (ARRAY['equirectangular'::text, 'perspective'::text]))),
    CONSTRAINT photos_sequence_index_check CHECK ((sequence_index >= 0)),
    CONSTRAINT photos_width_check CHECK ((width > 0))
);

--
-- Name: coverage_sequence_lines; Type: VIEW; Schema: public; Owner: -
--

CREATE VIEW public.coverage_sequence_lines AS
 SELECT l.sequence_id,
    l.geom,
    l.count,
    l.captured_at,
    l.interactive
   FROM ( SELECT p.sequence_id,
            public.st_removerepeatedpoints(public.st_makeline(public.st_transform(i.location, 3857) ORDER BY p.sequence_index, p.id)) AS geom,
            (count(*))::integer AS count,
            max(i.captured_at) AS captured_at,
            bool_or(i.interactive) AS interactive
           FROM (public.photos p
             JOIN public.imagery i ON ((i.id = p.id)))
          GROUP BY p.sequence_id) l
  WHERE (public.st_npoints(l.geom) >= 2);

--
-- Name: coverage_sequences; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.coverage_sequences (
    sequence_id uuid NOT NULL,
    geom public.geometry(LineString,3857) NOT NULL,
    count integer NOT NULL,
    captured_at date NOT NULL,
    interactive boolean NOT NULL
);

--
-- Name: coverage_sequences_touched; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.coverage_sequences_touched (
    sequence_id uuid
);

--
-- Name: coverage_touched; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.coverage_touched (
    location public.geometry(Point,4326)
);

--
-- Name: imagery_first_load; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.imagery_first_load (
    id boolean DEFAULT true NOT NULL,
    started_at timestamp with time zone DEFAULT now() NOT NULL,
    indexes text[] NOT NULL,
    CONSTRAINT imagery_first_load_id_check CHECK (id)
);

--
-- Name: imagery_word_lists; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.imagery_word_lists (
    word text NOT NULL,
    built_at timestamp with time zone NOT NULL
);

--
-- Name: imagery_word_ranks; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.imagery_word_ranks (
    word text NOT NULL,
    score real NOT NULL,
    imagery_id uuid NOT NULL
);

--
-- Name: imagery_word_ranks_state; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.imagery_word_ranks_state (
    id boolean DEFAULT true NOT NULL,
    since timestamp with time zone NOT NULL,
    CONSTRAINT imagery_word_ranks_state_id_check CHECK (id)
);

--
-- Name: imagery_words; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.imagery_words (
    word text NOT NULL,
    docs integer DEFAULT 0 NOT NULL
)
WITH (fillfactor='50');

--
-- Name: map_data_version; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.map_data_version (
    id smallint NOT NULL,
    version bigint NOT NULL,
    changed_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT map_data_version_id_check CHECK ((id = 1))
);

--
-- Name: map_features; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.map_features (
    source text NOT NULL,
    layer text NOT NULL,
    class text NOT NULL,
    name text,
    min_zoom smallint NOT NULL,
    geom public.geometry(Geometry,3857) NOT NULL,
    geom_low public.geometry(Geometry,3857),
    CONSTRAINT map_features_layer_check CHECK ((layer = ANY (ARRAY['streets'::text, 'paths'::text, 'water'::text, 'landuse'::text, 'buildings'::text])))
);

--
-- Name: place_term_lists; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.place_term_lists (
    term text NOT NULL,
    places integer NOT NULL,
    built_at timestamp with time zone DEFAULT now() NOT NULL
);

--
-- Name: place_term_ranks; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.place_term_ranks (
    term text NOT NULL,
    importance double precision NOT NULL,
    place_id uuid NOT NULL
);

--
-- Name: place_term_state; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.place_term_state (
    id boolean DEFAULT true NOT NULL,
    places bigint NOT NULL,
    last_change timestamp with time zone,
    min_places integer NOT NULL,
    list_size integer NOT NULL,
    built_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT place_term_state_id_check CHECK (id)
);

--
-- Name: places; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.places (
    id uuid NOT NULL,
    kind text NOT NULL,
    name text NOT NULL,
    housenumber text,
    street text,
    postcode text,
    locality text,
    region text,
    region_code text,
    country_code text,
    label text NOT NULL,
    alt_names text DEFAULT ''::text NOT NULL,
    name_norm text GENERATED ALWAYS AS (public.lis_normalize(name)) STORED,
    location public.geometry(Point,4326) NOT NULL,
    importance double precision DEFAULT 0 NOT NULL,
    population bigint,
    source text NOT NULL,
    source_id text NOT NULL,
    created_at timestamp(6) with time zone DEFAULT CURRENT_TIMESTAMP NOT NULL,
    updated_at timestamp(6) with time zone DEFAULT CURRENT_TIMESTAMP NOT NULL,
    category text,
    municipality text,
    district text,
    line public.geometry(Geometry,4326),
    search_tsv tsvector GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, public.lis_search_text(((((((((label || ' '::text) || alt_names) || ' '::text) || COALESCE(postcode, ''::text)) || ' '::text) || COALESCE(district, ''::text)) || ' '::text) || COALESCE(municipality, ''::text))))) STORED,
    hierarchy jsonb,
    names jsonb,
    CONSTRAINT places_importance_check CHECK (((importance >= (0)::double precision) AND (importance <= (1)::double precision))),
    CONSTRAINT places_kind_check CHECK ((kind = ANY (ARRAY['country'::text, 'region'::text, 'locality'::text, 'postcode'::text, 'street'::text, 'address'::text, 'poi'::text]))),
    CONSTRAINT places_label_check CHECK ((length(label) > 0)),
    CONSTRAINT places_name_check CHECK ((length(name) > 0))
);

--
-- Name: coverage_cells_z0; Type: TABLE ATTACH; Schema: public; Owner: -
--

ALTER TABLE ONLY public.coverage_cells ATTACH PARTITION public.coverage_cells_z0 FOR VALUES IN ('0');

--
-- Name: coverage_cells_z1; Type: TABLE ATTACH; Schema: public; Owner: -
--

ALTER TABLE ONLY public.coverage_cells ATTACH PARTITION public.coverage_cells_z1 FOR VALUES IN ('1');

--
-- Name: coverage_cells_z10; Type: TABLE ATTACH; Schema: public; Owner: -
--

ALTER TABLE ONLY public.coverage_cells ATTACH PARTITION public.coverage_cells_z10 FOR VALUES IN ('10');

--
-- Name: coverage_cells_z11; Type: TABLE ATTACH; Schema: public; Owner: -
--

ALTER TABLE ONLY public.coverage_cells ATTACH PARTITION public.coverage_cells_z11 FOR VALUES IN ('11');

--
-- Name: coverage_cells_z12; Type: TABLE ATTACH; Schema: public; Owner: -
--

ALTER TABLE ONLY public.coverage_cells ATTACH PARTITION public.coverage_cells_z12 FOR VALUES IN ('12');

--
-- Name: coverage_cells_z13; Type: TABLE ATTACH; Schema: public; Owner: -
--

ALTER TABLE ONLY public.coverage_cells ATTACH PARTITION public.coverage_cells_z13 FOR VALUES IN ('13');

--
-- Name: coverage_cells_z14; Type: TABLE ATTACH; Schema: public; Owner: -
--

ALTER TABLE ONLY public.coverage_cells ATTACH PARTITION public.coverage_cells_z14 FOR VALUES IN ('14');

--
-- Name: coverage_cells_z15; Type: TABLE ATTACH; Schema: public; Owner: -
--

ALTER TABLE ONLY public.coverage_cells ATTACH PARTITION public.coverage_cells_z15 FOR VALUES IN ('15');

--
-- Name: coverage_cells_z16; Type: TABLE ATTACH; Schema: public; Owner: -
--

ALTER TABLE ONLY public.coverage_cells ATTACH PARTITION public.coverage_cells_z16 FOR VALUES IN ('16');

--
-- Name: coverage_cells_z2; Type: TABLE ATTACH; Schema: public; Owner: -
--

ALTER TABLE ONLY public.coverage_cells ATTACH PARTITION public.coverage_cells_z2 FOR VALUES IN ('2');

--
-- Name: coverage_cells_z3; Type: TABLE ATTACH; Schema: public; Owner: -
--

ALTER TABLE ONLY public.coverage_cells ATTACH PARTITION public.coverage_cells_z3 FOR VALUES IN ('3');

--
-- Name: coverage_cells_z4; Type: TABLE ATTACH; Schema: public; Owner: -
--

ALTER TABLE ONLY public.coverage_cells ATTACH PARTITION public.coverage_cells_z4 FOR VALUES IN ('4');

--
-- Name: coverage_cells_z5; Type: TABLE ATTACH; Schema: public; Owner: -
--

ALTER TABLE ONLY public.coverage_cells ATTACH PARTITION public.coverage_cells_z5 FOR VALUES IN ('5');

--
-- Name: coverage_cells_z6; Type: TABLE ATTACH; Schema: public; Owner: -
--

ALTER TABLE ONLY public.coverage_cells ATTACH PARTITION public.coverage_cells_z6 FOR VALUES IN ('6');

--
-- Name: coverage_cells_z7; Type: TABLE ATTACH; Schema: public; Owner: -
--

ALTER TABLE ONLY public.coverage_cells ATTACH PARTITION public.coverage_cells_z7 FOR VALUES IN ('7');

--
-- Name: coverage_cells_z8; Type: TABLE ATTACH; Schema: public; Owner: -
--

ALTER TABLE ONLY public.coverage_cells ATTACH PARTITION public.coverage_cells_z8 FOR VALUES IN ('8');

--
-- Name: coverage_cells_z9; Type: TABLE ATTACH; Schema: public; Owner: -
--

ALTER TABLE ONLY public.coverage_cells ATTACH PARTITION public.coverage_cells_z9 FOR VALUES IN ('9');

--
-- Name: _prisma_migrations _prisma_migrations_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public._prisma_migrations
    ADD CONSTRAINT _prisma_migrations_pkey PRIMARY KEY (id);

--
-- Name: api_keys api_keys_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.api_keys
    ADD CONSTRAINT api_keys_pkey PRIMARY KEY (id);

--
-- Name: coverage_sequences coverage_sequences_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.coverage_sequences
    ADD CONSTRAINT coverage_sequences_pkey PRIMARY KEY (sequence_id);

--
-- Name: imagery_first_load imagery_first_load_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.imagery_first_load
    ADD CONSTRAINT imagery_first_load_pkey PRIMARY KEY (id);

--
-- Name: imagery imagery_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.imagery
    ADD CONSTRAINT imagery_pkey PRIMARY KEY (id);

--
-- Name: imagery_word_lists imagery_word_lists_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.imagery_word_lists
    ADD CONSTRAINT imagery_word_lists_pkey PRIMARY KEY (word);

--
-- Name: imagery_word_ranks_state imagery_word_ranks_state_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.imagery_word_ranks_state
    ADD CONSTRAINT imagery_word_ranks_state_pkey PRIMARY KEY (id);

--
-- Name: imagery_words imagery_words_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.imagery_words
    ADD CONSTRAINT imagery_words_pkey PRIMARY KEY (word);

--
-- Name: map_data_version map_data_version_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.map_data_version
    ADD CONSTRAINT map_data_version_pkey PRIMARY KEY (id);

--
-- Name: photos photos_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.photos
    ADD CONSTRAINT photos_pkey PRIMARY KEY (id);

--
-- Name: place_term_lists place_term_lists_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.place_term_lists
    ADD CONSTRAINT place_term_lists_pkey PRIMARY KEY (term);

--
-- Name: place_term_state place_term_state_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.place_term_state
    ADD CONSTRAINT place_term_state_pkey PRIMARY KEY (id);

--
-- Name: places places_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.places
    ADD CONSTRAINT places_pkey PRIMARY KEY (id);

--
-- Name: api_keys_key_hash_key; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX api_keys_key_hash_key ON public.api_keys USING btree (key_hash);

--
-- Name: coverage_cells_z0_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX coverage_cells_z0_idx ON public.coverage_cells_z0 USING gist (geom);

--
-- Name: coverage_cells_z10_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX coverage_cells_z10_idx ON public.coverage_cells_z10 USING gist (geom);

--
-- Name: coverage_cells_z11_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX coverage_cells_z11_idx ON public.coverage_cells_z11 USING gist (geom);

--
-- Name: coverage_cells_z12_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX coverage_cells_z12_idx ON public.coverage_cells_z12 USING gist (geom);

--
-- Name: coverage_cells_z13_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX coverage_cells_z13_idx ON public.coverage_cells_z13 USING gist (geom);

--
-- Name: coverage_cells_z14_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX coverage_cells_z14_idx ON public.coverage_cells_z14 USING gist (geom);

--
-- Name: coverage_cells_z15_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX coverage_cells_z15_idx ON public.coverage_cells_z15 USING gist (geom);

--
-- Name: coverage_cells_z16_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX coverage_cells_z16_idx ON public.coverage_cells_z16 USING gist (geom);

--
-- Name: coverage_cells_z1_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX coverage_cells_z1_idx ON public.coverage_cells_z1 USING gist (geom);

--
-- Name: coverage_cells_z2_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX coverage_cells_z2_idx ON public.coverage_cells_z2 USING gist (geom);

--
-- Name: coverage_cells_z3_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX coverage_cells_z3_idx ON public.coverage_cells_z3 USING gist (geom);

--
-- Name: coverage_cells_z4_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX coverage_cells_z4_idx ON public.coverage_cells_z4 USING gist (geom);

--
-- Name: coverage_cells_z5_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX coverage_cells_z5_idx ON public.coverage_cells_z5 USING gist (geom);

--
-- Name: coverage_cells_z6_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX coverage_cells_z6_idx ON public.coverage_cells_z6 USING gist (geom);

--
-- Name: coverage_cells_z7_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX coverage_cells_z7_idx ON public.coverage_cells_z7 USING gist (geom);

--
-- Name: coverage_cells_z8_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX coverage_cells_z8_idx ON public.coverage_cells_z8 USING gist (geom);

--
-- Name: coverage_cells_z9_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX coverage_cells_z9_idx ON public.coverage_cells_z9 USING gist (geom);

--
-- Name: coverage_sequences_geom_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX coverage_sequences_geom_idx ON public.coverage_sequences USING gist (geom);

--
-- Name: imagery_address_code_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX imagery_address_code_idx ON public.imagery USING btree (address_code) WHERE (address_code IS NOT NULL);

--
-- Name: imagery_address_norm_trgm_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX imagery_address_norm_trgm_idx ON public.imagery USING gin (address_norm public.gin_trgm_ops);

--
-- Name: imagery_address_tsv_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX imagery_address_tsv_idx ON public.imagery USING gin (address_tsv, region_code, country_code);

--
-- Name: imagery_captured_at_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX imagery_captured_at_idx ON public.imagery USING btree (captured_at, id);

--
-- Name: imagery_cell_captured_at_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX imagery_cell_captured_at_idx ON public.imagery USING btree (((floor((public.st_x(location) * (500)::double precision)))::integer), ((floor((public.st_y(location) * (500)::double precision)))::integer), captured_at, id);

--
-- Name: imagery_country_code_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX imagery_country_code_idx ON public.imagery USING btree (country_code);

--
-- Name: imagery_locality_id_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX imagery_locality_id_idx ON public.imagery USING btree (locality_id) WHERE (locality_id IS NOT NULL);

--
-- Name: imagery_location_geog_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX imagery_location_geog_idx ON public.imagery USING gist (((location)::public.geography));

--
-- Name: imagery_location_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX imagery_location_idx ON public.imagery USING gist (location);

--
-- Name: imagery_place_id_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX imagery_place_id_idx ON public.imagery USING btree (place_id) WHERE (place_id IS NOT NULL);

--
-- Name: imagery_recovered_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX imagery_recovered_idx ON public.imagery USING btree (id) WHERE (address_origin <> 'own'::text);

--
-- Name: imagery_region_code_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX imagery_region_code_idx ON public.imagery USING btree (region_code) WHERE (region_code IS NOT NULL);

--
-- Name: imagery_source_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX imagery_source_idx ON public.imagery USING btree (source);

--
-- Name: imagery_unlinked_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX imagery_unlinked_idx ON public.imagery USING btree (id) WHERE (locality_id IS NULL);

--
-- Name: imagery_word_ranks_imagery_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX imagery_word_ranks_imagery_idx ON public.imagery_word_ranks USING btree (imagery_id);

--
-- Name: imagery_word_ranks_order_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX imagery_word_ranks_order_idx ON public.imagery_word_ranks USING btree (word, score DESC, imagery_id);

--
-- Name: imagery_words_trgm_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX imagery_words_trgm_idx ON public.imagery_words USING gist (word public.gist_trgm_ops);

--
-- Name: map_features_geom_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX map_features_geom_idx ON public.map_features USING gist (geom);

--
-- Name: map_features_low_geom_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX map_features_low_geom_idx ON public.map_features USING gist (geom_low) WHERE (min_zoom < 12);

--
-- Name: map_features_source_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX map_features_source_idx ON public.map_features USING btree (source);

--
-- Name: photos_content_hash_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX photos_content_hash_idx ON public.photos USING btree (content_hash);

--
-- Name: photos_sequence_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX photos_sequence_idx ON public.photos USING btree (sequence_id, sequence_index);

--
-- Name: place_term_ranks_order_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX place_term_ranks_order_idx ON public.place_term_ranks USING btree (term, importance DESC, place_id);

--
-- Name: places_address_location_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX places_address_location_idx ON public.places USING gist (location) WHERE (kind = 'address'::text);

--
-- Name: places_category_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX places_category_idx ON public.places USING btree (category, importance DESC, id) WHERE (category IS NOT NULL);

--
-- Name: places_category_location_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX places_category_location_idx ON public.places USING gist (location) WHERE (category IS NOT NULL);

--
-- Name: places_label_location_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX places_label_location_idx ON public.places USING gist (location) WHERE (kind = ANY (ARRAY['country'::text, 'region'::text, 'locality'::text]));

--
-- Name: places_locality_location_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX places_locality_location_idx ON public.places USING gist (location) WHERE (kind = 'locality'::text);

--
-- Name: places_location_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX places_location_idx ON public.places USING gist (location);

--
-- Name: places_name_norm_trgm_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX places_name_norm_trgm_idx ON public.places USING gin (name_norm public.gin_trgm_ops, region_code, country_code);

--
-- Name: places_named_localities_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX places_named_localities_idx ON public.places USING gist (location) WHERE ((kind = 'locality'::text) AND (names IS NOT NULL));

--
-- Name: places_named_regions_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX places_named_regions_idx ON public.places USING btree (region_code) WHERE ((kind = 'region'::text) AND (names IS NOT NULL));

--
-- Name: places_named_streets_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX places_named_streets_idx ON public.places USING gist (COALESCE(line, location)) WHERE ((kind = 'street'::text) AND (names IS NOT NULL));

--
-- Name: places_search_tsv_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX places_search_tsv_idx ON public.places USING gin (search_tsv);

--
-- Name: places_search_tsv_named_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX places_search_tsv_named_idx ON public.places USING gin (search_tsv, region_code, country_code) WHERE ((kind <> 'address'::text) OR (name !~ '[0-9]'::text) OR (alt_names <> ''::text));

--
-- Name: places_source_id_key; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX places_source_id_key ON public.places USING btree (source, source_id);

--
-- Name: places_street_location_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX places_street_location_idx ON public.places USING gist (COALESCE(line, location)) WHERE (kind = 'street'::text);

--
-- Name: imagery imagery_coverage_on_delete; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER imagery_coverage_on_delete AFTER DELETE ON public.imagery REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION public.lis_note_coverage_touched();

--
-- Name: imagery imagery_coverage_on_insert; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER imagery_coverage_on_insert AFTER INSERT ON public.imagery REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.lis_note_coverage_touched();

--
-- Name: imagery imagery_coverage_on_truncate; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER imagery_coverage_on_truncate AFTER TRUNCATE ON public.imagery FOR EACH STATEMENT EXECUTE FUNCTION public.lis_note_coverage_touched();

--
-- Name: imagery imagery_coverage_on_update; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER imagery_coverage_on_update AFTER UPDATE ON public.imagery REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.lis_note_coverage_touched();

--
-- Name: imagery imagery_word_ranks_on_delete; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER imagery_word_ranks_on_delete AFTER DELETE ON public.imagery REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION public.lis_unrank_deleted();

--
-- Name: imagery imagery_word_ranks_on_truncate; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER imagery_word_ranks_on_truncate AFTER TRUNCATE ON public.imagery FOR EACH STATEMENT EXECUTE FUNCTION public.lis_unrank_all();

--
-- Name: imagery imagery_word_ranks_on_update; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER imagery_word_ranks_on_update AFTER UPDATE ON public.imagery REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.lis_unrank_readdressed();

--
-- Name: imagery imagery_words_on_delete; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER imagery_words_on_delete AFTER DELETE ON public.imagery REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION public.lis_count_words();

--
-- Name: imagery imagery_words_on_insert; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER imagery_words_on_insert AFTER INSERT ON public.imagery REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.lis_count_words();

--
-- Name: imagery imagery_words_on_truncate; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER imagery_words_on_truncate AFTER TRUNCATE ON public.imagery FOR EACH STATEMENT EXECUTE FUNCTION public.lis_clear_words();

--
-- Name: imagery imagery_words_on_update; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER imagery_words_on_update AFTER UPDATE ON public.imagery REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.lis_count_words();

--
-- Name: photos photos_sequences_on_delete; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER photos_sequences_on_delete AFTER DELETE ON public.photos REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION public.lis_note_sequences_touched();

--
-- Name: photos photos_sequences_on_insert; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER photos_sequences_on_insert AFTER INSERT ON public.photos REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.lis_note_sequences_touched();

--
-- Name: photos photos_sequences_on_truncate; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER photos_sequences_on_truncate AFTER TRUNCATE ON public.photos FOR EACH STATEMENT EXECUTE FUNCTION public.lis_note_sequences_touched();

--
-- Name: photos photos_sequences_on_update; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER photos_sequences_on_update AFTER UPDATE ON public.photos REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.lis_note_sequences_touched();

--
-- PostgreSQL database dump complete
--

