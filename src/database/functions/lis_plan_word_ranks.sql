-- Function lis_plan_word_ranks, as the migrations leave it (written by `npm run sql:functions`; change it in a migration).

CREATE OR REPLACE FUNCTION public.lis_plan_word_ranks(min_docs integer, prefix_min integer, list_size integer)
 RETURNS TABLE(since_old timestamp with time zone, since_next timestamp with time zone, merge boolean, terms text[], matches bigint[])
 LANGUAGE plpgsql
AS $function$
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
END $function$;
