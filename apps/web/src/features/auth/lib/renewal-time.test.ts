import { describe, expect, it } from "vitest";
import { tokenTimes } from "./renewal-time";

/** An unsigned token carrying `claims` (only its payload is read). */
function token(claims: Record<string, unknown>): string {
  const part = (value: unknown) =>
    btoa(JSON.stringify(value)).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");
  return `${part({ alg: "HS256", typ: "JWT" })}.${part(claims)}.signature`;
}

const ISSUED = 1_800_000_000;

describe("tokenTimes (when the session token is renewed)", () => {
  it("renews an hour after issue, and knows the expiry", () => {
    expect(tokenTimes(token({ iat: ISSUED, exp: ISSUED + 14 * 86_400 }))).toEqual({
      renewAt: (ISSUED + 3600) * 1000,
      expiresAt: (ISSUED + 14 * 86_400) * 1000,
    });
  });

  it("renews after a quarter of a lifetime shorter than four hours", () => {
    expect(tokenTimes(token({ iat: ISSUED, exp: ISSUED + 600 }))?.renewAt).toBe((ISSUED + 150) * 1000);
  });

  it("gives null for a token it cannot read or without a sensible lifetime", () => {
    expect(tokenTimes("not a token")).toBeNull();
    expect(tokenTimes(token({ exp: ISSUED }))).toBeNull();
    expect(tokenTimes(token({ iat: ISSUED, exp: ISSUED }))).toBeNull();
    expect(tokenTimes(token({ iat: "yesterday", exp: ISSUED }))).toBeNull();
  });
});
