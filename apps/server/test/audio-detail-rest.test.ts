import { afterAll, describe, expect, it } from "vitest";
import { appWithUsers, assignOverRest, fixture, uploadAudio } from "./fixtures/app-harness";

const { h, admin, staffA, adminToken, tokenA } = await appWithUsers();
afterAll(() => h.close());

const audio = await uploadAudio(h, adminToken, { name: "opened.wav", content: await fixture("hello.wav") });
await assignOverRest(h, adminToken, audio._id, staffA);

describe("GET /api/audios/{id}: who opened it last (SPEC §3, §4)", () => {
  it("answers lastOpenedBy as the opener's user id and the name in lastOpenedByUsername", async () => {
    const before = await h.call("GET", `/api/audios/${audio._id}`, adminToken);
    expect(before.statusCode, before.body).toBe(200);
    expect(before.json()).toMatchObject({ lastOpenedBy: null, lastOpenedByUsername: null, timeLastOpened: null });

    const opened = await h.call("PUT", `/api/updateaudios/${audio._id}/${admin.id}`, adminToken);
    expect(opened.statusCode, opened.body).toBe(200);

    const after = await h.call("GET", `/api/audios/${audio._id}`, adminToken);
    expect(after.statusCode, after.body).toBe(200);
    const body = after.json<{ lastOpenedBy: string; lastOpenedByUsername: string; timeLastOpened: string }>();
    expect(body.lastOpenedBy).toBe(admin.id);
    expect(body.lastOpenedByUsername).toBe(admin.username);
    expect(Date.parse(body.timeLastOpened)).toBeGreaterThan(Date.now() - 60_000);
  });

  it("tells staff neither the id nor the name", async () => {
    const res = await h.call("GET", `/api/audios/${audio._id}`, tokenA);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ lastOpenedBy: null, lastOpenedByUsername: null, timeLastOpened: null });
  });

  it("answers null for both once the opener's account is gone", async () => {
    const other = await h.createUser("Admin");
    const opened = await h.call("PUT", `/api/updateaudios/${audio._id}/${other.id}`, await h.token(other));
    expect(opened.statusCode, opened.body).toBe(200);
    expect((await h.call("GET", `/api/audios/${audio._id}`, adminToken)).json()).toMatchObject({
      lastOpenedBy: other.id,
      lastOpenedByUsername: other.username,
    });
    await h.deps.db.deleteFrom("users").where("id", "=", other.id).execute();
    expect((await h.call("GET", `/api/audios/${audio._id}`, adminToken)).json()).toMatchObject({
      lastOpenedBy: null,
      lastOpenedByUsername: null,
    });
  });
});
