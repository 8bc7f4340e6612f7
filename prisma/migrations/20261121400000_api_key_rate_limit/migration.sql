-- Per-key rate limit in requests per minute; NULL means the server default (RATE_LIMIT_PER_MINUTE).
ALTER TABLE "api_keys" ADD COLUMN "rate_limit" INTEGER;

-- Same bound as the application's (1..100000 per minute).
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_rate_limit_check" CHECK ("rate_limit" IS NULL OR ("rate_limit" >= 1 AND "rate_limit" <= 100000));
