import { createHmac, timingSafeEqual } from 'node:crypto';
import { ApiQuery } from '@nestjs/swagger';

// Private image URLs (IMAGE_URL_SECRET): a photo record's URLs carry `sig`, an HMAC-SHA256 of its id under
// the secret, so only a client that was given a URL by a search can load the record's images. The
// signature is the record's (every size and view of it), and stable: a URL never expires, so clients
// and their private caches keep it.

export const SIGNATURE_PARAMETER = 'sig';

export function imageSignature(id: string, secret: string): string {
  return createHmac('sha256', secret).update(id.toLowerCase()).digest('base64url').slice(0, 32);
}

/** A relative image path with the record's signature added (after its own query, if it has one). */
export function signedImagePath(path: string, id: string, secret: string): string {
  return `${path}${path.includes('?') ? '&' : '?'}${SIGNATURE_PARAMETER}=${imageSignature(id, secret)}`;
}

/** Whether `given` is the record's signature (compared in constant time). */
export function signatureMatches(id: string, given: unknown, secret: string): boolean {
  if (typeof given !== 'string') return false;
  const expected = Buffer.from(imageSignature(id, secret));
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** Every image answer's caching: shared caches may keep public images; private ones stay with their client. */
export function imageCacheControl(secret: string | undefined): string {
  return `${secret ? 'private' : 'public'}, max-age=31536000, immutable`;
}

/** The `sig` query parameter in the OpenAPI document of every image URL. */
export const ApiSignatureQuery = () =>
  ApiQuery({
    name: SIGNATURE_PARAMETER,
    required: false,
    description:
      "The record's signature, which every image URL a search returns carries when IMAGE_URL_SECRET makes images private",
    schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{32}$', maxLength: 32 },
  });
