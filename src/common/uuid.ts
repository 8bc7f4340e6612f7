// A record id, as every endpoint and import reads it: a UUID in its 8-4-4-4-12 hex form, any case.
export const UUID_PATTERN = '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';
export const UUID = new RegExp(UUID_PATTERN, 'i');
