import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appWithUsers, failed, fixture, uploadAudio, type AppWithUsers } from "./fixtures/app-harness";

/**
 * The REST scope's one error handler (SPEC §7.3): whatever a hostile client sends, the answer is
 * the documented failure body with a fitting status and a plain message, never a stack trace or a
 * dump of schema issues, and nothing changes.
 */

let u: AppWithUsers;
let audio: string;
beforeAll(async () => {
  u = await appWithUsers();
  audio = (
    await uploadAudio(u.h, u.adminToken, {
      name: "hostile.wav",
      content: await fixture("hello.wav"),
      type: "audio/wav",
    })
  )._id;
});
afterAll(() => u.h.close());

/** A raw POST to /api/createtask as the admin. */
function createTask(payload: string, contentType: string) {
  return u.h.app.inject({
    method: "POST",
    url: "/api/createtask",
    headers: { authorization: `Bearer ${u.adminToken}`, "content-type": contentType },
    payload,
  });
}

/** The audio still has no task: a refused request changed nothing. */
async function stillUnassigned(): Promise<void> {
  const res = await u.h.call("GET", `/api/audios/${audio}`, u.adminToken);
  expect(res.json<{ task: unknown }>().task).toBeNull();
}

describe("REST error handler", () => {
  it("answers malformed JSON with 400 and a plain message", async () => {
    const res = await createTask('{"audio_id": ', "application/json");
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(failed("The request body is not valid JSON."));
    await stillUnassigned();
  });

  it("answers a body of a type it does not read with 415, and plain text with 400", async () => {
    const xml = await createTask("<task/>", "application/xml");
    expect(xml.statusCode).toBe(415);
    expect(xml.json()).toEqual(failed("Send the request body as JSON."));
    const text = await createTask("audio_id=x", "text/plain");
    expect(text.statusCode).toBe(400);
    expect(text.json()).toEqual(failed("The request body must be a JSON object."));
    await stillUnassigned();
  });

  it("answers a JSON body that is not an object with 400", async () => {
    for (const body of ["[]", '"x"', "null", "42"]) {
      const res = await createTask(body, "application/json");
      expect(res.statusCode, body).toBe(400);
      expect(res.json(), body).toEqual(failed("The request body must be a JSON object."));
    }
    await stillUnassigned();
  });

  it("answers a body over the 1 MB limit with 413", async () => {
    const res = await createTask(
      JSON.stringify({ audio_id: audio, assigned_to: "x".repeat(1024 * 1024 + 10) }),
      "application/json",
    );
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual(failed("The request body is too large."));
    await stillUnassigned();
  });

  it("answers fields of the wrong type with the field's own message", async () => {
    const res = await u.h.call("POST", "/api/createtask", u.adminToken, { audio_id: audio, assigned_to: 42 });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(failed("Please select a staff member."));
    const recommend = await u.h.call("PUT", `/api/recommendaudioforrecording/${audio}`, u.adminToken, {
      recommended_to: ["a"],
    });
    expect(recommend.json()).toEqual(failed("Please select a staff member"));
    await stillUnassigned();
  });

  it("answers page and limit that are not positive whole numbers with 400", async () => {
    for (const query of ["page=abc", "page=0", "limit=-1", "limit=1.5"]) {
      const res = await u.h.call("GET", `/api/tasks?${query}`, u.adminToken);
      expect(res.statusCode, query).toBe(400);
      expect(res.json<{ message: string }>().message, query).toMatch(
        /^(page|limit) must be a positive whole number\.$/,
      );
    }
  });

  it("never answers a stack trace or a schema dump", async () => {
    const answers = await Promise.all([
      createTask("{", "application/json"),
      u.h.call("POST", "/auth/login", null, { email: { $ne: "" }, password: "x" }),
      u.h.call("POST", "/api/update-status", u.adminToken, { userId: u.staffA.id, status: "delete" }),
      u.h.call("GET", "/api/tasks/user/..%2F..%2Fetc", u.adminToken),
    ]);
    for (const res of answers) {
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
      expect(res.body).not.toMatch(/at .+\.(ts|js):\d+|"issues"|"code":"invalid_type"|ZodError/);
    }
    expect(answers[1]!.json()).toEqual(failed("Email is required"));
    expect(answers[2]!.json()).toEqual(failed("Status must be activate or deactivate."));
  });
});
