import { afterAll, describe, expect, it } from "vitest";
import { ADMINS_ONLY } from "@tafsiri/api";
import { createAppHarness } from "../fixtures/app-harness";
import { dbState, leaksInternals, ownedWorld, trpcCall } from "../fixtures/hostile-world";

/**
 * Decision 025, attack: transcripts.history (every version of a transcript, its texts and its
 * reviews) is for admins only. Staff, the assignee included, get 403 'Only administrators may do
 * this.' and none of the owner's words; no token 401; malformed, non-string and oversized ids 400
 * 'Unknown id.'; an unknown audio 404 'Audio not found.'; never a 500, nothing changed.
 */

const h = await createAppHarness();
afterAll(() => h.close());
const w = await ownedWorld(h);
// A reviewed, then changed transcript, so the history has texts worth stealing.
await h.caller(w.admin).transcripts.reject({ audioId: w.owned.id, reason: "secret reason" });
await h.caller(w.owner).transcripts.save({ audioId: w.owned.id, text: "the owner's second version" });

const PATH = "transcripts.history";
const UNKNOWN_ID = "Unknown id.";

/** Calls the procedure and checks it changed nothing and leaked nothing. */
async function call(token: string | null, input: unknown) {
  const before = await dbState(h);
  const res = await trpcCall(h, token, PATH, input);
  expect(await dbState(h)).toEqual(before);
  expect(leaksInternals(res.body), res.body.slice(0, 300)).toBe(false);
  return res;
}

describe("transcripts.history refuses what it must", () => {
  it("an admin gets both versions with the rejection (the baseline the attacks are measured against)", async () => {
    const res = await call(w.adminToken, { audioId: w.owned.id });
    expect(res.status, res.body).toBe(200);
    expect(res.data).toMatchObject({
      versions: [
        { current: true, reviews: [] },
        { current: false, reviews: [{ action: "reject", reason: "secret reason" }] },
      ],
      lastReviewed: { review: { action: "reject" } },
    });
  });

  it.each([
    ["the assignee, on their own audio", () => w.ownerToken, () => w.owned.id],
    ["another staff member, on the owner's audio", () => w.attackerToken, () => w.owned.id],
    ["a staff member, on their own audio", () => w.attackerToken, () => w.attackerAudio.id],
    ["a staff member, on an unknown id", () => w.attackerToken, () => "0b7e2f4c-5d1a-4c8e-9f3b-2a6d8e1c4b70"],
  ])("staff: %s → 403, nothing of the transcript", async (_who, token, audioId) => {
    const res = await call(token(), { audioId: audioId() });
    expect(res.status, res.body).toBe(403);
    expect(res.error).toMatchObject({ message: ADMINS_ONLY, data: { code: "FORBIDDEN" } });
    expect(res.data).toBeUndefined();
    for (const secret of [...w.secrets, "secret reason"]) expect(res.body).not.toContain(secret);
  });

  it("no token → 401 'You must be signed in.'", async () => {
    const res = await call(null, { audioId: w.owned.id });
    expect(res.status, res.body).toBe(401);
    expect(res.error?.message).toBe("You must be signed in.");
    expect(res.body).not.toContain("secret reason");
  });

  it("a forged token → 401", async () => {
    const res = await call(`${w.adminToken.slice(0, -4)}AAAA`, { audioId: w.owned.id });
    expect(res.status, res.body).toBe(401);
  });

  it.each([
    ["not an id", "not-an-id"],
    ["SQL injection", "' OR '1'='1' --"],
    ["a uuid with a suffix", `${w.owned.id}' OR 1=1`],
    ["a traversal", "../../etc/passwd"],
    ["100 kB", "x".repeat(100_000)],
    ["a number", 42],
    ["an array", [w.owned.id]],
    ["an object", { $ne: null }],
    ["null", null],
  ])("admin, malformed id (%s) → 400 'Unknown id.'", async (_what, audioId) => {
    const res = await call(w.adminToken, { audioId });
    expect(res.status, res.body.slice(0, 300)).toBe(400);
    expect(res.error?.message).toContain(UNKNOWN_ID);
  });

  it("admin, no input at all → 400", async () => {
    const res = await call(w.adminToken, undefined);
    expect(res.status, res.body).toBe(400);
  });

  it("admin, an unknown audio → 404 'Audio not found.'", async () => {
    const res = await call(w.adminToken, { audioId: "0b7e2f4c-5d1a-4c8e-9f3b-2a6d8e1c4b70" });
    expect(res.status, res.body).toBe(404);
    expect(res.error).toMatchObject({ message: "Audio not found.", data: { code: "NOT_FOUND" } });
  });

  it("admin, another id kind (a user's id) → 404, not somebody's history", async () => {
    const res = await call(w.adminToken, { audioId: w.owner.id });
    expect(res.status, res.body).toBe(404);
  });

  it("as a mutation (POST) → 405, nothing changed", async () => {
    const before = await dbState(h);
    const res = await h.app.inject({
      method: "POST",
      url: `/trpc/${PATH}`,
      headers: { authorization: `Bearer ${w.adminToken}`, "content-type": "application/json" },
      payload: JSON.stringify({ audioId: w.owned.id }),
    });
    expect(res.statusCode).toBe(405);
    expect(await dbState(h)).toEqual(before);
  });
});
