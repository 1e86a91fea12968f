import { createHmac, randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import type { LightMyRequestResponse } from "fastify";
import { signFileUrl } from "@tafsiri/api";
import { appWithUsers, assignOverRest, failed, fixture, uploadAudio } from "../fixtures/app-harness";

/**
 * Hostile suite, attack: tampering with a signed file link
 * (`/files/{key}?expires={unix s}&signature={hmac}`, from /api/fetch-files or an audio's
 * `audioUrl`): another key under the same signature, a later expiry, an edited, truncated or
 * re-encoded signature, a signature of another link, an expired link, a link signed with another
 * key, duplicated parameters. Each is refused, 403 'This link has expired or is invalid.' (400
 * for a parameter sent twice), and no byte of any file is served. Links are bearer links by
 * design (an <audio> element loads them without a token); who may get one is decided by
 * /api/fetch-files (cross-user-access.test.ts).
 */

const { h, staffA: staff, adminToken } = await appWithUsers();
afterAll(() => h.close());

const wav = await fixture("hello.wav");
const audioId = (await uploadAudio(h, adminToken, { name: "signed.wav", content: wav }))._id;
await assignOverRest(h, adminToken, audioId, staff);
await h.caller(staff).transcripts.save({ audioId, text: "a transcript to link to" });
const otherAudioId = (await uploadAudio(h, adminToken, { name: "other-signed.wav", content: wav }))._id;

const keyOf = async (id: string) =>
  (await h.deps.db.selectFrom("audios").select("fileKey").where("id", "=", id).executeTakeFirstOrThrow()).fileKey;
const audioKey = await keyOf(audioId);
const otherKey = await keyOf(otherAudioId);
const transcriptKey = (await h.deps.db.selectFrom("transcriptVersions").select("fileKey").executeTakeFirstOrThrow())
  .fileKey;

/** The link /api/fetch-files answers for `key`. */
async function linkFor(key: string): Promise<string> {
  const res = await h.call("POST", "/api/fetch-files", adminToken, { fileUrl: key });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ url: string }>().url;
}

const link = await linkFor(audioKey);
const { expires, signature } = Object.fromEntries(new URL(link, "http://x").searchParams) as {
  expires: string;
  signature: string;
};
const url = (key: string, query: string) => `/files/${key}?${query}`;

const LINK_INVALID = "This link has expired or is invalid.";

function get(path: string, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
  return h.app.inject({ method: "GET", url: path, headers });
}

/** Refused with `status` and the error model, and none of the file's bytes in the answer. */
function expectRefused(res: LightMyRequestResponse, status = 403, message = LINK_INVALID) {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json()).toEqual(failed(message));
  expect(res.headers["content-range"]).toBeUndefined();
  expect(res.rawPayload.includes(wav.subarray(0, 12))).toBe(false);
}

const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === "A" ? "B" : "A") + s.slice(i + 1);
const later = (seconds: number) => String(Number(expires) + seconds);

describe("a tampered link is refused", () => {
  it("(the control: the link as given serves the file, whole and by range)", async () => {
    const res = await get(link);
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(wav)).toBe(true);
    expect((await get(link, { range: "bytes=0-9" })).statusCode).toBe(206);
  });

  const CASES: Array<[string, () => string]> = [
    ["another file's key with this signature", () => url(otherKey, `expires=${expires}&signature=${signature}`)],
    ["the transcript's key with this signature", () => url(transcriptKey, `expires=${expires}&signature=${signature}`)],
    ["the key in upper case", () => url(audioKey.toUpperCase(), `expires=${expires}&signature=${signature}`)],
    ["the key with a suffix", () => url(`${audioKey}x`, `expires=${expires}&signature=${signature}`)],
    ["the expiry one second later", () => url(audioKey, `expires=${later(1)}&signature=${signature}`)],
    ["the expiry a year later", () => url(audioKey, `expires=${later(365 * 86_400)}&signature=${signature}`)],
    ["the expiry earlier", () => url(audioKey, `expires=${later(-60)}&signature=${signature}`)],
    ["the expiry not a number", () => url(audioKey, `expires=never&signature=${signature}`)],
    ["the expiry negative", () => url(audioKey, `expires=-1&signature=${signature}`)],
    ["the expiry left out", () => url(audioKey, `signature=${signature}`)],
    [
      "the signature's first character changed",
      () => url(audioKey, `expires=${expires}&signature=${flip(signature, 0)}`),
    ],
    [
      "the signature's last character changed",
      () => url(audioKey, `expires=${expires}&signature=${flip(signature, signature.length - 1)}`),
    ],
    ["the signature truncated", () => url(audioKey, `expires=${expires}&signature=${signature.slice(0, -1)}`)],
    ["the signature with padding", () => url(audioKey, `expires=${expires}&signature=${signature}%3D`)],
    ["the signature in upper case", () => url(audioKey, `expires=${expires}&signature=${signature.toUpperCase()}`)],
    [
      "the signature in hexadecimal",
      () => url(audioKey, `expires=${expires}&signature=${Buffer.from(signature, "base64url").toString("hex")}`),
    ],
    ["the signature empty", () => url(audioKey, `expires=${expires}&signature=`)],
    ["the signature left out", () => url(audioKey, `expires=${expires}`)],
    ["no query at all", () => `/files/${audioKey}`],
  ];

  it.each(CASES)("%s: 403", async (_what, make) => {
    expectRefused(await get(make()));
  });

  it("another file's whole query (its own valid expiry and signature) on this key: 403", async () => {
    const [, otherQuery] = (await linkFor(otherKey)).split("?");
    expectRefused(await get(url(audioKey, otherQuery!)));
  });

  it("an expired link: 403, also on a Range request", async () => {
    const expired = signFileUrl(h.deps.jwtSecret, audioKey, 60, Date.now() - 120_000);
    expectRefused(await get(expired));
    expectRefused(await get(expired, { range: "bytes=0-9" }));
  });

  it("a link signed with another key, or with the right key over another message: 403", async () => {
    const otherSecret = new TextEncoder().encode(randomBytes(32).toString("hex"));
    expectRefused(await get(signFileUrl(otherSecret, audioKey)));
    // HMAC of the key alone (without the expiry), as a careless signer might compute it.
    const keyOnly = createHmac("sha256", h.deps.jwtSecret).update(audioKey).digest("base64url");
    expectRefused(await get(url(audioKey, `expires=${expires}&signature=${keyOnly}`)));
  });

  it("a tampered link answers 403 to a Range or HEAD request too", async () => {
    const tampered = url(audioKey, `expires=${later(3_600)}&signature=${signature}`);
    expectRefused(await get(tampered, { range: "bytes=0-9" }));
    const head = await h.app.inject({ method: "HEAD", url: tampered });
    expect(head.statusCode).toBe(403);
    expect(head.rawPayload.length).toBe(0);
  });

  it("expires or signature sent twice: 400, nothing served", async () => {
    expectRefused(await get(`${link}&expires=${later(3_600)}`), 400, "Invalid input: expected string, received array");
    expectRefused(await get(`${link}&signature=${signature}`), 400, "Invalid input: expected string, received array");
  });
});
