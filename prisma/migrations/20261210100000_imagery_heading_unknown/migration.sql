-- A record's heading may be unknown (NULL): a photo record whose photo gave no direction (the photos
-- table's heading_origin 'none'). Such a record faces nothing: no heading filter, no looking_at from a
-- distance and no address view counts it as facing anything (docs/data.md, "Photos").
ALTER TABLE imagery ALTER COLUMN heading DROP NOT NULL;
