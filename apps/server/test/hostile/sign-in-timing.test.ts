import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SessionUser } from "@tafsiri/api";
import { createAppHarness, type AppHarness } from "../fixtures/app-harness";

/**
 * Hostile suite, attack: account enumeration by timing. If an unknown e-mail is answered
 * without a password check, its 401 comes back in milliseconds where a known e-mail with a wrong
 * password takes an argon2id verification: the time tells which e-mails have accounts.
 */

const ROUNDS = 15;

let h: AppHarness;
let staff: SessionUser;

beforeAll(async () => {
  h = await createAppHarness({ loginRateLimit: 1_000 });
  staff = await h.createUser("Staff");
});
afterAll(() => h.close());

/** Milliseconds POST /auth/login takes for `email` with a wrong password; expects the usual 401. */
async function timedSignIn(email: string): Promise<number> {
  const started = performance.now();
  const res = await h.app.inject({ method: "POST", url: "/auth/login", payload: { email, password: "Wrong-pass1!" } });
  const took = performance.now() - started;
  expect(res.statusCode, res.body).toBe(401);
  expect(res.json()).toMatchObject({ message: "Invalid email or password." });
  return took;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

describe("sign-in timing: an unknown e-mail and a wrong password take the same time", () => {
  it("answers both within 1.5x of each other (median of 15 each, interleaved)", async () => {
    // Warm both paths first (the first unknown e-mail also makes the dummy hash).
    await timedSignIn("nobody-warm@example.test");
    await timedSignIn(staff.email);

    const unknown: number[] = [];
    const known: number[] = [];
    for (let i = 0; i < ROUNDS; i += 1) {
      unknown.push(await timedSignIn(`nobody${i}@example.test`));
      known.push(await timedSignIn(staff.email));
    }
    const [u, k] = [median(unknown), median(known)];
    const ratio = Math.max(u, k) / Math.min(u, k);
    expect(ratio, `median unknown ${u.toFixed(1)} ms, known ${k.toFixed(1)} ms`).toBeLessThanOrEqual(1.5);
  });
});
