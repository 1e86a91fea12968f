import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { ADMINS_ONLY, SIGN_IN_REQUIRED } from "@tafsiri/api";
import { createAppHarness, failed } from "../fixtures/app-harness";
import { dbState, leaksInternals, ownedWorld, trpcCall } from "../fixtures/hostile-world";

/**
 * Decision 025, attack: the bulk review (POST /api/reviews/bulk and tRPC reviews.bulk) called by
 * staff (on a colleague's work and their own), without a session, and with malformed, oversized or
 * unknown input. Every refusal answers its status with a plain message and changes nothing; unknown
 * ids are skipped, not a failure of the call.
 */

const h = await createAppHarness();
afterAll(() => h.close());
const w = await ownedWorld(h);
const { owned } = w;
// The attacker's own Pending transcript (approving one's own work is the tempting target).
await h.caller(w.attacker).transcripts.save({ audioId: w.attackerAudio.id, text: "my own work" });
const attackerSubmission = (
  await h.deps.db
    .selectFrom("submissions")
    .select("id")
    .where("taskId", "=", w.attackerAudio.taskId)
    .executeTakeFirstOrThrow()
).id;

const VALID = { submission_ids: [owned.submissionId], outputs: ["transcript", "recording"], action: "approve" };
const bulk = (token: string | null, body: unknown) => h.call("POST", "/api/reviews/bulk", token, body);

/** Sends `body` as `token` and expects `status` with `message`, nothing stored changed, no internals leaked. */
async function refused(token: string | null, body: unknown, status: number, message: string) {
  const before = await dbState(h);
  const res = await bulk(token, body);
  expect(res.statusCode, `${JSON.stringify(body).slice(0, 200)}: ${res.body}`).toBe(status);
  expect(res.json()).toEqual(failed(message));
  expect(leaksInternals(res.body)).toBe(false);
  expect(await dbState(h)).toEqual(before);
}

describe("POST /api/reviews/bulk, refused", () => {
  it("without a token: 401", async () => {
    await refused(null, VALID, 401, SIGN_IN_REQUIRED);
  });

  it("a staff token on another staff member's submissions: 403, and nothing changes", async () => {
    await refused(w.attackerToken, VALID, 403, ADMINS_ONLY);
    await refused(w.attackerToken, { ...VALID, action: "reject", reason: "sabotage" }, 403, ADMINS_ONLY);
  });

  it("a staff token on their own submission (approving oneself): 403", async () => {
    await refused(w.attackerToken, { ...VALID, submission_ids: [attackerSubmission] }, 403, ADMINS_ONLY);
    await refused(w.ownerToken, VALID, 403, ADMINS_ONLY);
  });

  it("over tRPC too: reviews.bulk from staff answers 403 and changes nothing", async () => {
    const before = await dbState(h);
    const res = await trpcCall(h, w.attackerToken, "reviews.bulk", {
      submissionIds: [owned.submissionId, attackerSubmission],
      outputs: ["transcript"],
      action: "approve",
    });
    expect(res.status, res.body).toBe(403);
    expect(res.error?.message).toBe(ADMINS_ONLY);
    expect(await dbState(h)).toEqual(before);
  });

  it.each<[string, unknown, string]>([
    ["a malformed id", { ...VALID, submission_ids: ["1; DROP TABLE submissions"] }, "Unknown id."],
    ["a number for an id", { ...VALID, submission_ids: [42] }, "Unknown id."],
    ["a path for an id", { ...VALID, submission_ids: ["../../etc/passwd"] }, "Unknown id."],
    ["no ids", { ...VALID, submission_ids: [] }, "Select at least one submission."],
    ["ids not a list", { ...VALID, submission_ids: owned.submissionId }, "Select at least one submission."],
    ["ids left out", { outputs: ["transcript"], action: "approve" }, "Select at least one submission."],
    [
      "101 ids",
      { ...VALID, submission_ids: Array.from({ length: 101 }, () => randomUUID()) },
      "At most 100 submissions may be reviewed at once.",
    ],
    ["an unknown output", { ...VALID, outputs: ["initial_transcript"] }, "Outputs must be transcript or recording."],
    ["no outputs", { ...VALID, outputs: [] }, "Choose transcripts, recordings or both."],
    ["an unknown action", { ...VALID, action: "delete" }, "The action must be approve or reject."],
    ["an action in capitals", { ...VALID, action: "APPROVE" }, "The action must be approve or reject."],
    [
      "a reason over 1,000 characters",
      { ...VALID, action: "reject", reason: "x".repeat(1001) },
      "The reason may be at most 1,000 characters.",
    ],
    ["a reason with an approval", { ...VALID, reason: "looks fine" }, "A reason may be given with a rejection only."],
    ["a list for a body", [VALID], "The request body must be a JSON object."],
  ])("%s from an admin: 400", async (_name, body, message) => {
    await refused(w.adminToken, body, 400, message);
  });

  it("U+0000 in the reason: 400", async () => {
    const before = await dbState(h);
    const res = await bulk(w.adminToken, { ...VALID, action: "reject", reason: "bad\u0000reason" });
    expect(res.statusCode, res.body).toBe(400);
    expect(await dbState(h)).toEqual(before);
  });

  it("a body of several megabytes: refused before any review", async () => {
    const before = await dbState(h);
    const ids = Array.from({ length: 200_000 }, () => randomUUID());
    const res = await bulk(w.adminToken, { ...VALID, submission_ids: ids });
    expect([400, 413]).toContain(res.statusCode);
    expect(res.json()).toMatchObject({ status: "failed", success: false });
    expect(await dbState(h)).toEqual(before);
  });
});

describe("POST /api/reviews/bulk, unknown ids", () => {
  it("are skipped with 'Submission not found.' and the rest is reviewed", async () => {
    const unknown = randomUUID();
    const res = await bulk(w.adminToken, {
      submission_ids: [unknown, attackerSubmission],
      outputs: ["transcript"],
      action: "approve",
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      done: [{ submission_id: attackerSubmission, output: "transcript", status: "Approved" }],
      skipped: [{ submission_id: unknown, output: "transcript", reason: "Submission not found." }],
    });
  });
});
