import { afterAll, describe, expect, it } from "vitest";
import { signFileUrl } from "@tafsiri/api";
import { appWithUsers, assignOverRest, fixture, uploadAudio } from "./fixtures/app-harness";

const { h, staffA: staff, adminToken, tokenA: staffToken } = await appWithUsers();
afterAll(() => h.close());
const wav = await fixture("hello.wav");
const audioId = (await uploadAudio(h, adminToken, { name: "served.wav", content: wav }, "Dementia"))._id;
const { fileKey: audioKey } = await h.deps.db
  .selectFrom("audios")
  .select("fileKey")
  .where("id", "=", audioId)
  .executeTakeFirstOrThrow();

function fetchFiles(token: string | null, fileUrl: unknown) {
  return h.call("POST", "/api/fetch-files", token, { fileUrl, folder: "audios" });
}

async function signedUrl(token: string, key: string): Promise<string> {
  const res = await fetchFiles(token, key);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ url: string }>().url;
}

describe("GET /healthz", () => {
  it("answers 200 once the database is ready", async () => {
    const res = await h.app.inject({ method: "GET", url: "/healthz" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: "ok" });
  });
});

describe("POST /api/fetch-files", () => {
  it("gives an admin a signed URL that serves the stored bytes without a token", async () => {
    const url = await signedUrl(adminToken, audioKey);
    expect(url).toMatch(new RegExp(`^/files/${audioKey}\\?expires=\\d+&signature=[\\w-]+$`));
    const res = await h.app.inject({ method: "GET", url });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("audio/wav");
    expect(res.headers["accept-ranges"]).toBe("bytes");
    expect(Number(res.headers["content-length"])).toBe(wav.length);
    expect(res.rawPayload.equals(wav)).toBe(true);
  });

  it("accepts an earlier /files URL as fileUrl", async () => {
    const first = await signedUrl(adminToken, audioKey);
    const again = await signedUrl(adminToken, first);
    expect(again.split("?")[0]).toBe(`/files/${audioKey}`);
  });

  it("lets staff read files of audios assigned to them only", async () => {
    const denied = await fetchFiles(staffToken, audioKey);
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toMatchObject({
      status: "failed",
      success: false,
      message: "You do not have access to this audio.",
    });

    await assignOverRest(h, adminToken, audioId, staff);
    const url = await signedUrl(staffToken, audioKey);
    expect((await h.app.inject({ method: "GET", url })).rawPayload.equals(wav)).toBe(true);

    // The staff member's saved transcript (.cha) is served as UTF-8 plain text.
    await h.caller(staff).transcripts.save({ audioId, text: "Habari — nzuri sana" });
    const version = await h.deps.db.selectFrom("transcriptVersions").select("fileKey").executeTakeFirstOrThrow();
    const cha = await h.app.inject({ method: "GET", url: await signedUrl(staffToken, version.fileKey) });
    expect(cha.statusCode).toBe(200);
    expect(cha.headers["content-type"]).toBe("text/plain; charset=utf-8");
    expect(cha.body).toBe("Habari — nzuri sana");
  });

  it("refuses callers without a token, unknown keys and an empty fileUrl", async () => {
    expect((await fetchFiles(null, audioKey)).statusCode).toBe(401);
    const unknown = await fetchFiles(adminToken, "audios/does-not-exist.wav");
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ status: "failed", success: false, message: "File not found." });
    expect((await fetchFiles(adminToken, "../../etc/passwd")).statusCode).toBe(404);
    const empty = await fetchFiles(adminToken, "");
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe("fileUrl is required.");
  });
});

describe("GET /files/*", () => {
  it("answers a byte range with 206 and Content-Range", async () => {
    const url = await signedUrl(adminToken, audioKey);
    const res = await h.app.inject({ method: "GET", url, headers: { range: "bytes=100-1099" } });
    expect(res.statusCode).toBe(206);
    expect(res.headers["content-range"]).toBe(`bytes 100-1099/${wav.length}`);
    expect(Number(res.headers["content-length"])).toBe(1000);
    expect(res.rawPayload.equals(wav.subarray(100, 1100))).toBe(true);

    const tail = await h.app.inject({ method: "GET", url, headers: { range: "bytes=-50" } });
    expect(tail.statusCode).toBe(206);
    expect(tail.rawPayload.equals(wav.subarray(wav.length - 50))).toBe(true);
  });

  it("answers 416 for a range past the end", async () => {
    const url = await signedUrl(adminToken, audioKey);
    const res = await h.app.inject({ method: "GET", url, headers: { range: `bytes=${wav.length + 10}-` } });
    expect(res.statusCode).toBe(416);
    expect(res.headers["content-range"]).toBe(`bytes */${wav.length}`);
  });

  it("refuses expired and forged links with 403", async () => {
    const refused = { status: "failed", success: false, message: "This link has expired or is invalid." };
    const expired = signFileUrl(h.deps.jwtSecret, audioKey, -10);
    const res = await h.app.inject({ method: "GET", url: expired });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual(refused);

    const good = signFileUrl(h.deps.jwtSecret, audioKey);
    const forgedSignature = good.replace(/signature=[\w-]+/, "signature=AAAA");
    const laterExpiry = good.replace(/expires=(\d+)/, (_m, e: string) => `expires=${Number(e) + 3600}`);
    const otherKey = good.replace(audioKey, "audios/other.wav");
    const otherSecret = signFileUrl(new TextEncoder().encode("not the server's secret at all!!"), audioKey);
    for (const url of [forgedSignature, laterExpiry, otherKey, otherSecret, `/files/${audioKey}`]) {
      const forged = await h.app.inject({ method: "GET", url });
      expect(forged.statusCode, url).toBe(403);
      expect(forged.json()).toEqual(refused);
    }
  });

  it("answers 404 for a validly signed key with no file", async () => {
    const res = await h.app.inject({ method: "GET", url: signFileUrl(h.deps.jwtSecret, "audios/gone.wav") });
    expect(res.statusCode).toBe(404);
  });
});
