import { afterAll, beforeAll, describe, expect, it } from "vitest";
import Fastify, { type FastifyInstance, type FastifyRequest } from "fastify";
import { fastifyTRPCPlugin, type CreateFastifyContextOptions } from "@trpc/server/adapters/fastify";
import { appRouter, authenticateSession, bearerToken, createContextInner, type SessionUser } from "@tafsiri/api";
import { createHarness } from "@tafsiri/api/testing/harness";
import { registerTrpcHttp } from "../src/routes/trpc-http";

// Decision 017: our loop answers tRPC's GET queries as tRPC's own Fastify
// adapter does. Both serve the same router on the same database; every request below is sent to
// each, and the answers (status, body, content type, Vary) must be the same.

const h = await createHarness();
let ours: FastifyInstance;
let theirs: FastifyInstance;
let admin: SessionUser;
let staff: SessionUser;
let adminToken: string;
let staffToken: string;

async function contextOf(req: FastifyRequest) {
  const session = await authenticateSession(h.deps.db, h.deps.jwtSecret, bearerToken(req.headers.authorization));
  return createContextInner({ ...h.deps, user: session?.user ?? null, session, clientIp: req.ip });
}

beforeAll(async () => {
  admin = await h.createUser("Admin");
  staff = await h.createUser("Staff");
  adminToken = await h.token(admin);
  staffToken = await h.token(staff);

  ours = Fastify();
  await ours.register(async (scope) => registerTrpcHttp(scope, { router: appRouter, createContext: contextOf }));
  theirs = Fastify();
  await theirs.register(fastifyTRPCPlugin, {
    prefix: "/trpc",
    trpcOptions: { router: appRouter, createContext: ({ req }: CreateFastifyContextOptions) => contextOf(req) },
  });
});
afterAll(async () => {
  await ours?.close();
  await theirs?.close();
  await h.close();
});

/** The parts of an answer a client sees. */
async function answerOf(app: FastifyInstance, url: string, token: string | null, headers: Record<string, string> = {}) {
  const res = await app.inject({
    method: "GET",
    url,
    headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });
  return {
    status: res.statusCode,
    contentType: res.headers["content-type"],
    vary: res.headers.vary,
    body: res.body,
  };
}

const q = (input: unknown) => encodeURIComponent(JSON.stringify(input));

describe("tRPC GET queries: our loop answers as tRPC's adapter does", () => {
  const cases: Array<[name: string, url: () => string, who: "admin" | "staff" | null]> = [
    ["a query", () => `/trpc/tasks.list?input=${q({ page: 1, limit: 10 })}`, "admin"],
    ["a query without input", () => "/trpc/accounts.me", "staff"],
    [
      "a batch of queries",
      () => `/trpc/tasks.list,audios.list?batch=1&input=${q({ 0: { page: 1 }, 1: { category: "Control", page: 1 } })}`,
      "admin",
    ],
    ["a batch of one without input", () => `/trpc/accounts.me?batch=1&input=${q({})}`, "staff"],
    [
      "a batch with an error and a success (207)",
      () => `/trpc/audios.list,accounts.me?batch=1&input=${q({ 0: { category: "Control" } })}`,
      "staff",
    ],
    ["no session", () => `/trpc/tasks.list?input=${q({ page: 1 })}`, null],
    [
      "a staff member on an admin query",
      () => `/trpc/audios.list?input=${q({ category: "Control", page: 1 })}`,
      "staff",
    ],
    ["invalid input", () => `/trpc/tasks.list?input=${q({ page: -1 })}`, "admin"],
    ["input of the wrong type", () => `/trpc/tasks.list?input=${q("page one")}`, "admin"],
    ["an unknown id", () => `/trpc/audios.get?input=${q({ id: "00000000-0000-0000-0000-000000000000" })}`, "admin"],
    ["a malformed id", () => `/trpc/audios.get?input=${q({ id: "not-an-id" })}`, "admin"],
    ["an admin query with data", () => `/trpc/accounts.list?input=${q({ page: 1 })}`, "admin"],
    ["input that is not JSON", () => "/trpc/tasks.list?input=%7Bpage", "admin"],
    ["a batch whose input is not an object", () => `/trpc/tasks.list?batch=1&input=${q([1])}`, "admin"],
    ["an unknown procedure", () => "/trpc/tasks.nothing", "admin"],
    ["a prototype key as a path", () => "/trpc/constructor", "admin"],
    ["a mutation over GET", () => `/trpc/accounts.login?input=${q({})}`, "admin"],
    ["a batch mixing a query and a mutation", () => `/trpc/accounts.me,accounts.login?batch=1&input=${q({})}`, "admin"],
    ["a path with bad URL encoding", () => "/trpc/tasks.list%E0%A4%A", "admin"],
    ["a plus in the input", () => `/trpc/search.audios?input=${encodeURIComponent('{"q":"a')}+b%22%7D`, "admin"],
    ["the batch flag twice", () => `/trpc/accounts.me?batch=1&batch=1&input=${q({})}`, "staff"],
    ["the input twice", () => `/trpc/tasks.list?input=${q({ page: 1 })}&input=${q({ page: 2 })}`, "admin"],
  ];
  for (const [name, url, who] of cases) {
    it(name, async () => {
      const token = who === "admin" ? adminToken : who === "staff" ? staffToken : null;
      const expected = await answerOf(theirs, url(), token);
      expect(await answerOf(ours, url(), token)).toEqual(expected);
    });
  }

  it("a streamed batch (trpc-accept: application/jsonl) is left to tRPC's handler", async () => {
    const url = `/trpc/accounts.me?batch=1&input=${q({})}`;
    const headers = { "trpc-accept": "application/jsonl" };
    const expected = await answerOf(theirs, url, staffToken, headers);
    // tRPC streams it as JSON lines (one line per chunk), not one JSON document.
    expect(expected.body.trim().split("\n").length).toBeGreaterThan(1);
    expect(await answerOf(ours, url, staffToken, headers)).toEqual(expected);
  });
});
