-- Function lis_term_tsquery, as the migrations leave it (written by `npm run sql:functions`; change it in a migration).

CREATE OR REPLACE FUNCTION public.lis_term_tsquery(term text)
 RETURNS tsquery
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  SELECT to_tsquery('simple', quote_literal(rtrim(term, '*')) || CASE WHEN right(term, 1) = '*' THEN ':*' ELSE '' END)
$function$;
