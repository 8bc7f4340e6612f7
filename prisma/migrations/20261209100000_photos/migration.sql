-- Photos: what the photo import (npm run import -- <folder>) read from each camera file, beside the
-- imagery record it made (same id). The record keeps what a search needs; this table keeps the rest:
-- where the original and its derivatives are in the image store (by content hash), the capture instant
-- with its offset, the camera and the sequence. One row per photo record, written in the record's batch.
-- No foreign key to imagery: imagery may be distributed (Citus), and a local table cannot reference it;
-- every read goes through an imagery id that exists.
CREATE TABLE photos (
  id uuid PRIMARY KEY,
  content_hash text NOT NULL CHECK (content_hash ~ '^[0-9a-f]{64}$'),
  bytes bigint NOT NULL CHECK (bytes > 0),
  -- ISO 8601 with the offset the camera wrote or the position's zone gave (2018-06-08T13:24:10.000-07:00).
  captured_time text NOT NULL,
  time_zone text,
  -- Where the offset came from: 'exif' (OffsetTimeOriginal or an offset in the XMP time), 'position' (the zone there).
  offset_origin text NOT NULL CHECK (offset_origin IN ('exif', 'position')),
  make text,
  model text,
  width int NOT NULL CHECK (width > 0),
  height int NOT NULL CHECK (height > 0),
  orientation smallint,
  projection text NOT NULL CHECK (projection IN ('equirectangular', 'perspective')),
  -- A panorama's GPano geometry (full and cropped size, crop offsets, pose heading), when it has one.
  panorama jsonb,
  altitude float8,
  horizontal_accuracy float8,
  -- Where the heading came from: 'exif' (GPSImgDirection), 'track' (the direction of travel: GPSTrack or
  -- the GPX track), 'sequence' (the bearing to the next photo), 'none'.
  heading_origin text NOT NULL CHECK (heading_origin IN ('exif', 'track', 'sequence', 'none')),
  heading_reference text CHECK (heading_reference IN ('true', 'magnetic')),
  -- Where the position came from: 'exif' (the photo's GPS tags) or 'track' (a GPX track at its time).
  position_origin text NOT NULL CHECK (position_origin IN ('exif', 'track')),
  sequence_id uuid NOT NULL,
  sequence_index int NOT NULL CHECK (sequence_index >= 0)
);

CREATE INDEX photos_sequence_idx ON photos (sequence_id, sequence_index);
CREATE INDEX photos_content_hash_idx ON photos (content_hash);

-- Every role that may read imagery without owning it (the read-only role of `npm run
-- db:create-readonly-role`) may read photos too: the image URLs and the `camera` include read them.
DO $$
DECLARE
  r RECORD;
  owner OID := (SELECT c.relowner FROM pg_class c WHERE c.oid = 'imagery'::regclass);
BEGIN
  FOR r IN
    SELECT a.rolname FROM pg_roles a
    WHERE has_table_privilege(a.oid, 'imagery', 'SELECT') AND NOT a.rolsuper
      AND a.rolname NOT LIKE 'pg\_%' AND NOT pg_has_role(a.oid, owner, 'MEMBER')
  LOOP
    EXECUTE format('GRANT SELECT ON photos TO %I', r.rolname);
  END LOOP;
END $$;
