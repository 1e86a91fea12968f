import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LightMyRequestResponse } from "fastify";
import { appWithUsers, assignOverRest, failed, fixture, uploadAudio } from "../fixtures/app-harness";

/**
 * Attack (and honest use): transcripts at and past the schema's maximum. The schema allows
 * 2,000,000 characters, so the JSON body limit of the route that takes a transcript (tRPC
 * `transcripts.save` at /trpc) must admit that many characters however they are encoded (at
 * worst 6 bytes each, `\u0001` in JSON), and a longer transcript is refused with the limit in
 * characters, on tRPC as on the REST upload. Other JSON bodies keep the 1 MB limit.
 */

const { h, staffA: staff, adminToken, tokenA: staffToken } = await appWithUsers();
afterAll(() => h.close());

const MAX_CHARS = 2_000_000;
const TOO_LONG = "The transcript may be at most 2,000,000 characters.";
let audioId: string;

beforeAll(async () => {
  audioId = (await uploadAudio(h, adminToken, { name: "long-talk.wav", content: await fixture("hello.wav") }))._id;
  await assignOverRest(h, adminToken, audioId, staff);
});

/** transcripts.save over HTTP as the web app sends it (httpBatchLink: POST ?batch=1, {"0": input}). */
function save(text: string, token = staffToken): Promise<LightMyRequestResponse> {
  return h.app.inject({
    method: "POST",
    url: "/trpc/transcripts.save?batch=1",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    payload: JSON.stringify({ 0: { audioId, text } }),
  });
}

/** The first call's answer in a batched tRPC response. */
function first(res: LightMyRequestResponse) {
  const body = res.json<unknown>();
  expect(Array.isArray(body), res.body.slice(0, 300)).toBe(true);
  return (body as Array<{ result?: { data: unknown }; error?: { message: string; data: { httpStatus: number } } }>)[0]!;
}

async function savedLength(): Promise<number> {
  return (await h.caller(staff).transcripts.get({ audioId })).text?.length ?? 0;
}

describe("transcripts.save admits what the schema allows", () => {
  it("saves a 1.9 MB transcript", async () => {
    const res = await save("habari ".repeat(271_428));
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(first(res).result?.data).toMatchObject({ status: "Pending" });
    expect(await savedLength()).toBe(271_428 * 7);
  });

  it("saves the maximum, 2,000,000 characters, in 3-byte UTF-8 and in 6-byte JSON escapes", async () => {
    for (const char of ["✓", "\u0001"]) {
      const text = char.repeat(MAX_CHARS);
      const res = await save(text);
      expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
      expect(await savedLength()).toBe(MAX_CHARS);
    }
  });
});

describe("a transcript past the maximum", () => {
  it("is refused with the limit in characters over tRPC", async () => {
    const res = await save("a".repeat(MAX_CHARS + 1));
    expect(res.statusCode).toBe(400);
    expect(first(res).error).toMatchObject({ message: TOO_LONG, data: { httpStatus: 400 } });
  });

  it("is refused with the same message on the REST upload", async () => {
    const before = await h.snapshot();
    const res = await h.upload("TRANSLATED_TRANSCRIPT", staffToken, [
      ["audioId", audioId],
      ["file", { name: "long.cha", content: "a".repeat(MAX_CHARS + 1) }],
    ]);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(failed(TOO_LONG));
    expect(await h.snapshot()).toEqual(before);
  });

  it("answers 413 in tRPC's shape, with the limit in characters, when even the body is too large", async () => {
    const res = await save("\u0001".repeat(MAX_CHARS + 100_000));
    expect(res.statusCode).toBe(413);
    expect(first(res).error).toMatchObject({
      message: TOO_LONG,
      data: { code: "PAYLOAD_TOO_LARGE", httpStatus: 413 },
    });
  });
});

describe("other JSON bodies", () => {
  it("past the /trpc limit answer 413 'The request body is too large.' per call of the batch", async () => {
    const res = await h.app.inject({
      method: "POST",
      url: "/trpc/comments.add,transcripts.save?batch=1",
      headers: { authorization: `Bearer ${staffToken}`, "content-type": "application/json" },
      payload: JSON.stringify({ 0: { audioId, text: "\u0001".repeat(MAX_CHARS + 100_000) }, 1: { audioId, text: "" } }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json<Array<{ error: { message: string } }>>().map((answer) => answer.error.message)).toEqual([
      "The request body is too large.",
      TOO_LONG,
    ]);
  });

  it("keep the 1 MB limit on REST", async () => {
    const res = await h.call("POST", "/api/createtask", adminToken, {
      audio_id: audioId,
      assigned_to: "x".repeat(1024 * 1024 + 10),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual(failed("The request body is too large."));
  });
});
