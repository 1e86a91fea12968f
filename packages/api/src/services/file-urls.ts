import { createHmac, timingSafeEqual } from "node:crypto";

/** How long a signed file URL stays valid, in seconds. */
const FILE_URL_TTL_SECONDS = 60 * 60;

function signature(secret: Uint8Array, key: string, expires: number): string {
  return createHmac("sha256", secret).update(`${key}\n${expires}`).digest("base64url");
}

/**
 * A short-lived URL for a stored file that an <audio> element or a plain GET can load without an
 * Authorization header: `/files/{key}?expires={unix s}&signature={hmac}` (ARCHITECTURE: fetch-files).
 */
export function signFileUrl(
  secret: Uint8Array,
  key: string,
  ttlSeconds = FILE_URL_TTL_SECONDS,
  now = Date.now(),
): string {
  const expires = Math.floor(now / 1000) + ttlSeconds;
  return `/files/${key}?expires=${expires}&signature=${signature(secret, key, expires)}`;
}

/**
 * Decision 027: `expires={unix s}&signature={hmac}` for `subject` (a name that is not a storage key,
 * such as a backup archive's), valid for `ttlSeconds`; checked with verifyFileUrl.
 */
export function signedQuery(secret: Uint8Array, subject: string, ttlSeconds: number, now = Date.now()): string {
  const expires = Math.floor(now / 1000) + ttlSeconds;
  return `expires=${expires}&signature=${signature(secret, subject, expires)}`;
}

/** True when the signature matches the key and the URL has not expired. */
export function verifyFileUrl(
  secret: Uint8Array,
  key: string,
  expires: string | undefined,
  sig: string | undefined,
  now = Date.now(),
): boolean {
  const exp = Number(expires);
  if (!sig || !Number.isInteger(exp) || exp < Math.floor(now / 1000)) return false;
  const expected = Buffer.from(signature(secret, key, exp));
  const given = Buffer.from(sig);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
