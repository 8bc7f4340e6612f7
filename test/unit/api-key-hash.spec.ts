import { displayPrefix, generateApiKey, hashApiKey, hashesEqual } from '../../src/api-key/api-key-hash';

describe('API key secrets', () => {
  it('generates prefixed keys with 256 bits of randomness', () => {
    const key = generateApiKey();
    expect(key).toMatch(/^lis_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(key.slice(4), 'base64url')).toHaveLength(32);
    expect(new Set(Array.from({ length: 100 }, generateApiKey)).size).toBe(100);
  });

  it('hashes with SHA-256 (hex)', () => {
    expect(hashApiKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('shows only a short non-secret prefix', () => {
    const key = generateApiKey();
    expect(displayPrefix(key)).toBe(key.slice(0, 12));
  });

  it('compares hashes exactly', () => {
    const h = hashApiKey('one');
    expect(hashesEqual(h, hashApiKey('one'))).toBe(true);
    expect(hashesEqual(h, hashApiKey('two'))).toBe(false);
    expect(hashesEqual(h, h.slice(0, 10))).toBe(false);
  });
});
