-- Function lis_plus_code, as the migrations leave it (written by `npm run sql:functions`; change it in a migration).

CREATE OR REPLACE FUNCTION public.lis_plus_code(lat double precision, lon double precision)
 RETURNS text
 LANGUAGE plpgsql
 IMMUTABLE PARALLEL SAFE
AS $function$
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
$function$;
