import { createHash } from "node:crypto";
import { Transform } from "node:stream";

/** A pass-through stream that counts and hashes what flows through it. */
export interface Hashing {
  stream: Transform;
  /** The byte count and SHA-256 (hex) so far; call once the stream has ended. */
  result(): { sizeBytes: number; sha256: string };
}

/**
 * A pass-through that hashes (SHA-256) and counts the bytes passing. With `expected`, it fails
 * at its end, before its last callback, with `mismatch(actual)` when the size or the hash
 * differs, so a consumer (storage.put, pg_restore's input) sees an error, not a finished file.
 * Decision 027.
 */
export function hashing(expected?: { sizeBytes: number; sha256: string; mismatch(): Error }): Hashing {
  const hash = createHash("sha256");
  let sizeBytes = 0;
  let digest: string | null = null;
  const finish = () => (digest ??= hash.digest("hex"));
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      sizeBytes += chunk.length;
      if (expected && sizeBytes > expected.sizeBytes) return done(expected.mismatch());
      done(null, chunk);
    },
    flush(done) {
      if (expected && (sizeBytes !== expected.sizeBytes || finish() !== expected.sha256)) {
        return done(expected.mismatch());
      }
      done();
    },
  });
  return { stream, result: () => ({ sizeBytes, sha256: finish() }) };
}
