-- Imagery far from every place: a record with no address or street within 50 m and no locality
-- within LOCALITY_MAX_DISTANCE_M (imagery-place-link.repository.ts) takes its plus code as its
-- address (address_origin 'plus_code') instead of the label of a town that may lie thousands of
-- kilometres away, and no locality, region or country. Adds one function and one allowed value.

-- The 10-digit Open Location Code of a point (about 14 x 14 m), computed as Google's reference
-- implementation does (open-location-code's encodePairs: the same double-precision steps, so the same
-- code; test/medium/plus-code-addresses.spec.ts compares the two).
CREATE OR REPLACE FUNCTION "lis_plus_code"(lat DOUBLE PRECISION, lon DOUBLE PRECISION) RETURNS TEXT
  LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
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

ALTER TABLE "imagery" DROP CONSTRAINT "imagery_address_origin_check";
ALTER TABLE "imagery" ADD CONSTRAINT "imagery_address_origin_check"
  CHECK ("address_origin" IN ('own', 'address', 'street', 'locality', 'plus_code'));
