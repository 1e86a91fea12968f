import { afterAll, describe, expect, it } from "vitest";
import type { LightMyRequestResponse } from "fastify";
import { TRPCError } from "@trpc/server";
import { describeError, NUL_IN_TEXT } from "@tafsiri/api";
import { TEST_PASSWORD } from "@tafsiri/api/testing/harness";
import { appWithUsers, assignOverRest, fixture, listFiles, uploadAudio } from "../fixtures/app-harness";
import { dbState, trpcCall, type TrpcAnswer } from "../fixtures/hostile-world";

/**
 * Hostile suite, attack: a NUL character (U+0000) in a string: a file name, a form field, a
 * fileUrl, an e-mail at sign-in, a search, a comment, a transcript, a notification, a username,
 * an object key. PostgreSQL (and PGlite) cannot store or compare U+0000 in text, so before the
 * fix each of these reached SQL and failed there: 500 'An unexpected error occurred.' (logged as a
 * server failure), some of them without signing in. Now every input string is checked at the
 * boundary (tRPC's procedures, the REST scopes, upload forms) and refused with 400 NUL_IN_TEXT
 * before anything runs; nothing changes. Every other character is accepted (the control below).
 */

const { h, staffA: staff, adminToken, tokenA: staffToken } = await appWithUsers({ loginRateLimit: 1_000 });
afterAll(() => h.close());
const wav = await fixture("hello.wav");
const audioId = (await uploadAudio(h, adminToken, { name: "nul-target.wav", content: wav }))._id;
await assignOverRest(h, adminToken, audioId, staff);

const NUL = "a\u0000b";

type Answer = { status: number; message: string | undefined };
const fromRest = (res: LightMyRequestResponse): Answer => ({
  status: res.statusCode,
  message: res.json<{ message?: string }>().message,
});
const fromTrpc = (res: TrpcAnswer): Answer => ({ status: res.status, message: res.error?.message });

/** [what, the request] */
const CASES: Array<[string, () => Promise<Answer>]> = [
  [
    "AUDIO upload whose file name holds a NUL",
    async () =>
      fromRest(
        await h.upload("AUDIO", adminToken, [
          ["category", "Control"],
          ["file", { name: `evil${NUL}.wav`, content: wav }],
        ]),
      ),
  ],
  [
    "AUDIO upload whose form field holds a NUL",
    async () =>
      fromRest(
        await h.upload("AUDIO", adminToken, [
          ["category", `Control${NUL}`],
          ["file", { name: "fine.wav", content: wav }],
        ]),
      ),
  ],
  [
    "POST /api/fetch-files with a NUL in fileUrl",
    async () => fromRest(await h.call("POST", "/api/fetch-files", staffToken, { fileUrl: `audios/${NUL}.wav` })),
  ],
  [
    "POST /auth/login (no session) with a NUL in the e-mail",
    async () => fromRest(await h.call("POST", "/auth/login", null, { email: NUL, password: "x" })),
  ],
  [
    "GET /auth/passwordreset/{email} (no session) with a NUL",
    async () => fromRest(await h.call("GET", "/auth/passwordreset/a%00b%40example.test", null)),
  ],
  ["GET /api/search?q= with a NUL", async () => fromRest(await h.call("GET", "/api/search?q=a%00b", staffToken))],
  [
    "accounts.login over tRPC (no session)",
    async () => fromTrpc(await trpcCall(h, null, "accounts.login", { email: NUL, password: NUL })),
  ],
  [
    "comments.add with a NUL in the text",
    async () => fromTrpc(await trpcCall(h, staffToken, "comments.add", { audioId, text: NUL })),
  ],
  [
    "transcripts.save with a NUL in the text",
    async () => fromTrpc(await trpcCall(h, staffToken, "transcripts.save", { audioId, text: NUL })),
  ],
  [
    "notifications.create with a NUL in the message",
    async () =>
      fromTrpc(
        await trpcCall(h, staffToken, "notifications.create", {
          senderId: staff.id,
          message: NUL,
          link: "/Audios",
          toAdmins: true,
        }),
      ),
  ],
  [
    "accounts.register (admin) with a NUL in the username",
    async () =>
      fromTrpc(
        await trpcCall(h, adminToken, "accounts.register", {
          username: NUL,
          email: "nul-user@example.test",
          password: "Str0ng-pass!",
          role: "Staff",
          adminPassword: TEST_PASSWORD,
        }),
      ),
  ],
  [
    "logs.list (admin) filtered by an action holding a NUL",
    async () => fromTrpc(await trpcCall(h, adminToken, "logs.list", { action: NUL })),
  ],
  [
    "a tRPC input whose object key holds a NUL",
    async () => fromTrpc(await trpcCall(h, staffToken, "comments.add", { audioId, text: "hi", [NUL]: "x" })),
  ],
];

describe("a NUL character in a string answers 400, never 500, and changes nothing", () => {
  it.each(CASES)("%s", async (_what, send) => {
    const before = await dbState(h);
    const res = await send();
    expect(res, JSON.stringify(res)).toEqual({ status: 400, message: NUL_IN_TEXT });
    expect(await dbState(h)).toEqual(before);
    expect(await listFiles(`${h.filesDir}/.tmp`)).toEqual([]);
  });

  it("(the control: a transcript with every other control character is saved)", async () => {
    const text = `tab\tline\r\nbell\u0007 escape\u001b del\u007f nbsp\u00a0 bom\ufeff ${"\u0001".repeat(3)}`;
    const saved = await trpcCall(h, staffToken, "transcripts.save", { audioId, text });
    expect(saved.status, saved.body).toBe(200);
    const read = await trpcCall(h, staffToken, "transcripts.get", { audioId });
    expect(read.body).toContain(JSON.stringify(text).slice(1, -1));
  });
});

describe("the safety net: the database's own refusal of U+0000 maps to 400", () => {
  it("in text and in jsonb, also when tRPC wraps it", async () => {
    const db = h.deps.db;
    const queries = [
      db.selectNoFrom((eb) => eb.cast<string>(eb.val(NUL), "text").as("t")),
      db.selectNoFrom((eb) => eb.cast<unknown>(eb.val(JSON.stringify({ a: NUL })), "jsonb").as("j")),
    ];
    for (const query of queries) {
      const error = await query.execute().then(
        () => null,
        (e: unknown) => e,
      );
      expect(error, "the database refuses U+0000").not.toBeNull();
      for (const thrown of [error, new TRPCError({ code: "INTERNAL_SERVER_ERROR", cause: error })]) {
        expect(describeError(thrown)).toMatchObject({ code: "BAD_REQUEST", httpStatus: 400, message: NUL_IN_TEXT });
      }
    }
  });
});
