-- Function lis_vocabulary_word, as the migrations leave it (written by `npm run sql:functions`; change it in a migration).

CREATE OR REPLACE FUNCTION public.lis_vocabulary_word(word text)
 RETURNS boolean
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  SELECT length(word) BETWEEN 2 AND 64 AND (word !~ '[^[:alpha:]]' OR word ~ '^[0-9]+(st|nd|rd|th)$')
$function$;
