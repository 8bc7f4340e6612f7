import { ValueType } from './setting-types';

// An origin is scheme://host[:port], nothing after it; CORS compares origins exactly.
const ORIGIN = /^https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?$/;

/** Origins allowed by CORS; empty means CORS is off (browsers on other origins are refused). */
export type CorsOrigins = string[] | '*';

export const corsOrigins: ValueType<CorsOrigins> = {
  rule: '* or a comma-separated list of origins like https://app.example.com',
  accepts: (raw) => raw === '*' || raw.split(',').every((o) => ORIGIN.test(o.trim())),
  parse: (raw) =>
    raw === '*'
      ? '*'
      : raw
          .split(',')
          .map((v) => v.trim())
          .filter((v) => v.length > 0),
};
