// Making keys (random, with a recognisable prefix) and the SHA-256 hashes the database stores instead of them.

import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const API_KEY_PREFIX = 'lis_';
const DISPLAY_PREFIX_LENGTH = API_KEY_PREFIX.length + 8;

// 32 random bytes (256 bits), base64url: e.g. lis_Qm9v...; the prefix makes leaked keys easy to spot.
export function generateApiKey(): string {
  return API_KEY_PREFIX + randomBytes(32).toString('base64url');
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

// The non-secret part shown in listings and logs.
export function displayPrefix(key: string): string {
  return key.slice(0, DISPLAY_PREFIX_LENGTH);
}

export function hashesEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}
