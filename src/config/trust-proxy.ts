import { isIP } from 'node:net';
import { ValueType } from './setting-types';

// Which reverse proxies may set X-Forwarded-For; the client address (brute-force limits) depends on it.
// Express's forms: a hop count, or addresses/subnets/named ranges. `true` (trust anyone) is refused on
// purpose: it would let any client choose its own address and escape the per-address limits.
export type TrustProxy = false | number | string[];

const NAMED = new Set(['loopback', 'linklocal', 'uniquelocal']);

export function isTrustProxy(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  if (value === 'false' || /^([0-9]|10)$/.test(value)) return true;
  return value.split(',').every((part) => {
    const item = part.trim();
    if (NAMED.has(item)) return true;
    const [address, bits, ...rest] = item.split('/');
    const version = isIP(address);
    if (version === 0 || rest.length > 0) return false;
    return bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (version === 4 ? 32 : 128));
  });
}

export function parseTrustProxy(value: string | undefined): TrustProxy {
  if (value === undefined || value === 'false') return false;
  if (/^\d+$/.test(value)) return Number(value);
  return value.split(',').map((s) => s.trim());
}

export const trustProxy: ValueType<TrustProxy> = {
  rule: 'false, a hop count (0-10) or a comma-separated list of addresses, subnets, loopback, linklocal or uniquelocal',
  accepts: isTrustProxy,
  parse: parseTrustProxy,
};
