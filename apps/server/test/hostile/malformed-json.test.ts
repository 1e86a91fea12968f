import http from "node:http";
import { afterAll, describe, expect, it } from "vitest";
import type { LightMyRequestResponse } from "fastify";
import { ADMINS_ONLY } from "@tafsiri/api";
import { appWithUsers, failed, fixture, uploadAudio } from "../fixtures/app-harness";
import { dbState, leaksInternals } from "../fixtures/hostile-world";
import { listen } from "../fixtures/live-client";

/**
 * Hostile suite, attack: malformed and hostile JSON bodies: invalid or truncated JSON, JSON
 * that is not an object, the wrong Content-Type, nesting 100,000 levels deep, a 2 MB body
 * (declared or streamed in chunks), and prototype pollution (`__proto__`, `constructor.prototype`).
 * REST answers a plain 400 / 413 / 415 in its error model; tRPC answers in its own error shape;
 * neither shows a stack trace, none changes anything, and no object's prototype is polluted.
 * A tRPC mutation whose body is not JSON (multipart, form-urlencoded, or no Content-Type) answers
 * 415 'Send the request body as JSON.' in tRPC's shape: before the fix, Fastify refused it itself
 * (its raw 415 body), and multipart answered 500 with an internal message ("Converting circular
 * structure to JSON … 'Request'"), also without a token.
 */

const { h, staffA: staff, adminToken, tokenA: staffToken } = await appWithUsers();
const baseUrl = await listen(h.app);
afterAll(() => h.close());

const wav = await fixture("hello.wav");
const audioId = (await uploadAudio(h, adminToken, { name: "json-target.wav", content: wav }))._id;
const VALID = JSON.stringify({ audio_id: audioId, assigned_to: staff.id });

const NOT_JSON = "The request body is not valid JSON.";
const NOT_OBJECT = "The request body must be a JSON object.";
const SEND_JSON = "Send the request body as JSON.";
const TOO_LARGE = "The request body is too large.";

const deepArray = (n: number) => "[".repeat(n) + "]".repeat(n);
const deepObject = (n: number, leaf = "1") => '{"a":'.repeat(n) + leaf + "}".repeat(n);

/** POST /api/createtask (an admin's assignment: it would change state if accepted) with a raw body. */
function createTask(payload: string | Buffer, contentType?: string): Promise<LightMyRequestResponse> {
  return h.app.inject({
    method: "POST",
    url: "/api/createtask",
    headers: { authorization: `Bearer ${adminToken}`, ...(contentType ? { "content-type": contentType } : {}) },
    payload,
  });
}

/** Expects a REST refusal in the error model, without internals. */
function expectRestRefusal(res: LightMyRequestResponse, status: number, message: string) {
  expect(res.statusCode, res.body.slice(0, 300)).toBe(status);
  expect(res.json()).toEqual(failed(message));
  expect(leaksInternals(res.body)).toBe(false);
}

const REST_CASES: Array<
  [what: string, payload: string, contentType: string | undefined, status: number, message: string]
> = [
  ["invalid JSON", "{bad", "application/json", 400, NOT_JSON],
  ["truncated JSON", `{"audio_id": "${audioId}`, "application/json", 400, NOT_JSON],
  ["JSON with trailing garbage", `${VALID} x`, "application/json", 400, NOT_JSON],
  ["single quotes", `{'audio_id': '${audioId}'}`, "application/json", 400, NOT_JSON],
  ["an empty body", "", "application/json", 400, NOT_OBJECT],
  ["an array", `[${VALID}]`, "application/json", 400, NOT_OBJECT],
  ["a string", JSON.stringify(VALID), "application/json", 400, NOT_OBJECT],
  ["a number", "42", "application/json", 400, NOT_OBJECT],
  ["null", "null", "application/json", 400, NOT_OBJECT],
  ["true", "true", "application/json", 400, NOT_OBJECT],
  ["valid JSON as text/plain", VALID, "text/plain", 400, NOT_OBJECT],
  ["valid JSON as a form", VALID, "application/x-www-form-urlencoded", 415, SEND_JSON],
  ["valid JSON as XML", VALID, "application/xml", 415, SEND_JSON],
  ["valid JSON as application/json-patch+json", VALID, "application/json-patch+json", 415, SEND_JSON],
  ["valid JSON with no Content-Type", VALID, undefined, 415, SEND_JSON],
  ["a multipart body", "--x\r\n\r\n--x--\r\n", "multipart/form-data; boundary=x", 400, NOT_OBJECT],
  ["arrays nested 100,000 deep", deepArray(100_000), "application/json", 400, NOT_OBJECT],
  [
    "an id that is an array nested 100,000 deep",
    `{"audio_id":${deepArray(100_000)},"assigned_to":"${staff.id}"}`,
    "application/json",
    400,
    "Unknown id.",
  ],
  ["objects nested 50,000 deep", deepObject(50_000), "application/json", 400, "Unknown id."],
  ["__proto__ at the top", `{"__proto__":{"role":"Admin"},${VALID.slice(1)}`, "application/json", 400, NOT_JSON],
  [
    "__proto__ nested",
    `{"a":{"b":{"__proto__":{"isAdmin":true}}},${VALID.slice(1)}`,
    "application/json",
    400,
    NOT_JSON,
  ],
  [
    "constructor.prototype",
    `{"constructor":{"prototype":{"role":"Admin"}},${VALID.slice(1)}`,
    "application/json",
    400,
    NOT_JSON,
  ],
  [
    "__proto__ under 5,000 levels",
    `{"x":${deepObject(5_000, '{"__proto__":{"p":1}}')}}`,
    "application/json",
    400,
    NOT_JSON,
  ],
];

describe("REST: malformed JSON bodies answer 400/415 in the error model and change nothing", () => {
  it.each(REST_CASES)("%s", async (_what, payload, contentType, status, message) => {
    const before = await dbState(h);
    expectRestRefusal(await createTask(payload, contentType), status, message);
    expect(await dbState(h)).toEqual(before);
  });

  it("(the control: the same body, well formed, assigns the audio)", async () => {
    const { _id } = await uploadAudio(h, adminToken, { name: "json-control.wav", content: wav });
    const res = await createTask(JSON.stringify({ audio_id: _id, assigned_to: staff.id }), "application/json");
    expect(res.statusCode, res.body).toBe(200);
  });
});

describe("REST: a 2 MB JSON body (the limit is 1 MB) answers 413", () => {
  it("declared with Content-Length", async () => {
    const before = await dbState(h);
    const body = JSON.stringify({ audio_id: audioId, assigned_to: "x".repeat(2 * 1024 * 1024) });
    expectRestRefusal(await createTask(body, "application/json"), 413, TOO_LARGE);
    expect(await dbState(h)).toEqual(before);
  });

  it("streamed in chunks without a length, over a real socket", async () => {
    const before = await dbState(h);
    const { hostname, port } = new URL(baseUrl);
    const res = await new Promise<{ statusCode: number; body: string }>((resolve, reject) => {
      const req = http.request(
        {
          hostname,
          port,
          path: "/api/createtask",
          method: "POST",
          headers: {
            authorization: `Bearer ${adminToken}`,
            "content-type": "application/json",
            "transfer-encoding": "chunked",
          },
        },
        (answer) => {
          let body = "";
          answer.setEncoding("utf8");
          answer.on("data", (chunk: string) => (body += chunk));
          answer.on("end", () => resolve({ statusCode: answer.statusCode ?? 0, body }));
        },
      );
      req.on("error", reject);
      req.write('{"audio_id":"');
      for (let i = 0; i < 32; i += 1) req.write("x".repeat(64 * 1024));
      req.end('"}');
    });
    expect(res.statusCode).toBe(413);
    expect(JSON.parse(res.body)).toEqual(failed(TOO_LARGE));
    expect(await dbState(h)).toEqual(before);
  });
});

/** A raw tRPC request as `token` (staff unless given). */
function trpc(
  method: "GET" | "POST",
  url: string,
  payload?: string,
  contentType = "application/json",
  token = staffToken,
) {
  return h.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${token}`, ...(payload === undefined ? {} : { "content-type": contentType }) },
    ...(payload === undefined ? {} : { payload }),
  });
}

/** The tRPC error of a (possibly batched) answer. */
function trpcError(res: LightMyRequestResponse): { message: string; data: { code: string; httpStatus: number } } {
  const body = res.json<unknown>();
  const answer = (Array.isArray(body) ? body[0] : body) as {
    error: { message: string; data: { code: string; httpStatus: number } };
  };
  return answer.error;
}

describe("tRPC: malformed JSON answers 400/415 in tRPC's error shape and changes nothing", () => {
  const input = (value: string) => `/trpc/audios.get?input=${encodeURIComponent(value)}`;
  const CASES: Array<[what: string, send: () => Promise<LightMyRequestResponse>, status: number, code: string]> = [
    ["invalid JSON in a mutation", () => trpc("POST", "/trpc/comments.add", "{bad"), 400, "BAD_REQUEST"],
    ["invalid JSON in a batch", () => trpc("POST", "/trpc/comments.add?batch=1", "{bad"), 400, "BAD_REQUEST"],
    ["a batch whose body is an array", () => trpc("POST", "/trpc/comments.add?batch=1", "[]"), 400, "BAD_REQUEST"],
    ["an empty mutation body", () => trpc("POST", "/trpc/comments.add", ""), 400, "BAD_REQUEST"],
    ["null as the input", () => trpc("POST", "/trpc/comments.add", "null"), 400, "BAD_REQUEST"],
    ["invalid JSON in a query's input", () => trpc("GET", input("{bad")), 400, "BAD_REQUEST"],
    ["arrays nested 100,000 deep", () => trpc("POST", "/trpc/comments.add", deepArray(100_000)), 400, "BAD_REQUEST"],
    ["text/plain", () => trpc("POST", "/trpc/comments.add", "hello", "text/plain"), 415, "UNSUPPORTED_MEDIA_TYPE"],
  ];

  it.each(CASES)("%s", async (_what, send, status, code) => {
    const before = await dbState(h);
    const res = await send();
    expect(res.statusCode, res.body.slice(0, 300)).toBe(status);
    const error = trpcError(res);
    expect(error.data).toMatchObject({ code, httpStatus: status });
    expect(error.message.length).toBeGreaterThan(0);
    expect(leaksInternals(res.body)).toBe(false);
    expect(await dbState(h)).toEqual(before);
  });
});

describe("tRPC: a mutation body that is not JSON answers 415 in tRPC's error shape", () => {
  const input = JSON.stringify({ audioId, text: "hello" });
  const MULTIPART = "--x\r\n\r\n--x--\r\n";
  const CASES: Array<[what: string, payload: string, contentType: string | undefined, token: string | null]> = [
    ["multipart/form-data, signed in", MULTIPART, "multipart/form-data; boundary=x", staffToken],
    ["multipart/form-data, without a token", MULTIPART, "multipart/form-data; boundary=x", null],
    ["application/x-www-form-urlencoded", "audioId=x&text=hello", "application/x-www-form-urlencoded", staffToken],
    ["no Content-Type", input, undefined, staffToken],
  ];

  it.each(CASES)("%s", async (_what, payload, contentType, token) => {
    const before = await dbState(h);
    const res = await h.app.inject({
      method: "POST",
      url: "/trpc/comments.add",
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(contentType ? { "content-type": contentType } : {}),
      },
      payload,
    });
    expect(res.statusCode, res.body).toBe(415);
    expect(trpcError(res)).toMatchObject({
      message: SEND_JSON,
      data: { code: "UNSUPPORTED_MEDIA_TYPE", httpStatus: 415 },
    });
    expect(leaksInternals(res.body)).toBe(false);
    expect(res.body).not.toContain("circular");
    expect(await dbState(h)).toEqual(before);
  });

  it("a batch answers one 415 per call", async () => {
    const res = await trpc(
      "POST",
      "/trpc/comments.add,comments.list?batch=1",
      "x=1",
      "application/x-www-form-urlencoded",
    );
    expect(res.statusCode, res.body).toBe(415);
    const body = res.json<Array<{ error: { message: string; data: { code: string; path: string } } }>>();
    expect(body.map((answer) => [answer.error.data.path, answer.error.data.code, answer.error.message])).toEqual([
      ["comments.add", "UNSUPPORTED_MEDIA_TYPE", SEND_JSON],
      ["comments.list", "UNSUPPORTED_MEDIA_TYPE", SEND_JSON],
    ]);
  });
});

describe("prototype pollution", () => {
  it("tRPC inputs with __proto__ and constructor.prototype are plain data: no role, no polluted prototype", async () => {
    const before = await dbState(h);
    const polluted = [
      `{"__proto__":{"role":"Admin","isAdmin":true},"audioId":"${audioId}"}`,
      `{"constructor":{"prototype":{"role":"Admin"}},"audioId":"${audioId}"}`,
      `{"audioId":"${audioId}","x":{"__proto__":{"polluted":"yes"}}}`,
    ];
    for (const body of polluted) {
      // A staff member calling an admin-only procedure is still refused.
      const del = await trpc("POST", "/trpc/audios.delete", body);
      expect(del.statusCode, del.body).toBe(403);
      expect(trpcError(del).message).toBe(ADMINS_ONLY);
      const batch = await trpc("POST", "/trpc/audios.delete?batch=1", `{"0":${body}}`);
      expect(batch.statusCode, batch.body).toBe(403);
      const query = await trpc("GET", `/trpc/accounts.list?input=${encodeURIComponent(body)}`);
      expect(query.statusCode, query.body).toBe(403);
    }
    const probe: Record<string, unknown> = {};
    for (const key of ["role", "isAdmin", "polluted"]) {
      expect(probe[key]).toBeUndefined();
      expect(Object.prototype).not.toHaveProperty(key);
    }
    expect(await dbState(h)).toEqual(before);
    // The server still answers normally, and the staff token is still Staff.
    const me = await trpc("GET", "/trpc/accounts.me");
    expect(me.statusCode).toBe(200);
    expect(me.json<{ result: { data: { role: string } } }>().result.data.role).toBe("Staff");
  });
});
