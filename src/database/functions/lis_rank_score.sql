-- Function lis_rank_score, as the migrations leave it (written by `npm run sql:functions`; change it in a migration).

CREATE OR REPLACE FUNCTION public.lis_rank_score(address_norm text, address_tsv tsvector, term text)
 RETURNS real
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  SELECT (similarity(address_norm, rtrim(term, '*'))
    + CASE WHEN address_norm = rtrim(term, '*') THEN 2 ELSE 0 END
    + CASE WHEN starts_with(address_norm, rtrim(term, '*')) THEN 0.5 ELSE 0 END
    + CASE WHEN right(term, 1) <> '*' OR address_tsv @@ to_tsquery('simple', quote_literal(rtrim(term, '*')))
        THEN 0.5 ELSE 0 END)::real
$function$;
