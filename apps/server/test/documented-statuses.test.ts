import { readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RouteOptions } from "fastify";
import ts from "typescript";
import { TEST_PASSWORD, createHarness, type TestHarness } from "@tafsiri/api/testing/harness";
import { buildApp } from "../src/app";
import { routeStatuses, type SourceRoute } from "./fixtures/route-statuses";

/**
 * Every path and method of the OpenAPI document documents exactly the statuses it can answer
 * (SPEC §7.1, §7.3): the statuses its description names (and any numbered answer it declares)
 * against those its code can raise, found by following its handler through the procedures and
 * services it calls to each `new AppError(code)` (mapped by the one error table, APP_ERROR_CODES),
 * each `reply.code(n)`, and each input schema (its route's body or query, a procedure's input).
 */

/** Statuses any path can answer whatever it does, said once in the document's own description. */
const SCOPE_WIDE: Record<number, RegExp> = {
  413: /413/, // a request body over the limit
  414: /414/, // a path past the router's parameter length
  415: /415/, // a body that is not JSON where JSON is read
  429: /429/, // the request limit of /api and /auth, and the sign-in limit
  500: /500/, // an unexpected failure
};

/**
 * Declarations whose refusals never reach one REST path in particular: the WebSocket-only check
 * (REST calls procedures over HTTP), the NUL check every input passes (400, scope-wide: the
 * document's description says it once) and a read-only API token's refusal to change anything
 * (403, decision 036: said once in the document's description too).
 */
const NOT_PER_PATH = new Set([
  "subscriptionsOnlyOnWebSocket",
  "refuseNulInput",
  "readOnlyTokensRead",
  // Decision 038: an admin who must enrol a second factor is refused on every path but enrolment's.
  "refuseBeforeEnrolment",
]);

/**
 * Statuses the analysis finds in code this path shares with others but that this path cannot
 * reach, each with the reason (the analysis follows every branch; these branches need an input the
 * path never passes). The test fails when one of them stops being found or gets documented.
 */
const UNREACHABLE_HERE: Record<string, Record<number, string>> = {
  "GET /api/tasks": { 403: "tasks.list refuses another user's `assignedTo`; this path passes none" },
  "GET /api/submissions": { 403: "submissions.list refuses another user's `userId`; this path passes none" },
  "GET /api/recommendedrecordings": {
    403: "recommendations.list refuses another user's `recommendedTo`; this path passes none",
  },
  "GET /auth/users": { 400: "accounts.list's filters are optional, and the path sends none" },
  "GET /api/tasks/{id}": { 400: "tasks.get takes any string as `taskId`, and the path always gives one" },
  "POST /api/reviews/bulk": {
    404: "each submission's refusal is caught and listed under `skipped` (decision 025)",
    409: "each submission's refusal is caught and listed under `skipped` (decision 025)",
  },
  "POST /api/exports": { 404: "the export just started is read back in the same call" },
};

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../src");
const ROUTE_FILES = [
  ...readdirSync(path.join(SRC, "routes/rest"))
    .filter((f) => f.endsWith(".ts"))
    .map((f) => `routes/rest/${f}`),
  "routes/files.ts",
  "routes/backup-files.ts",
  "routes/health.ts",
];

interface Operation {
  description?: string;
  responses?: Record<string, unknown>;
}

let h: TestHarness;
let app: Awaited<ReturnType<typeof buildApp>>;
let doc: { info: { description: string }; paths: Record<string, Record<string, Operation>> };
const registered: RouteOptions[] = [];
let source: SourceRoute[];

beforeAll(async () => {
  h = await createHarness();
  app = await buildApp({
    deps: h.deps,
    settings: { MAX_UPLOAD_BYTES: 1024 * 1024, WEB_DIST: undefined },
    onRoute: (route) => registered.push(route),
  });
  await app.ready();
  doc = (await app.inject({ method: "GET", url: "/api/openapi.json" })).json();
  source = routeStatuses(ROUTE_FILES, {
    skip: (node) => {
      const name = ts.isVariableDeclaration(node) || ts.isFunctionDeclaration(node) ? node.name : undefined;
      return name !== undefined && ts.isIdentifier(name) && NOT_PER_PATH.has(name.text);
    },
  });
}, 120_000);
afterAll(async () => {
  await app.close();
  await h.close();
});

/** Statuses from 400 up that `text` names as numbers ("401, 403 for staff, 404 'Task not found.'"). */
function namedStatuses(text: string): Set<number> {
  return new Set([...text.matchAll(/(?<![\d.,])([45]\d\d)(?!\d|[.,]\d)/g)].map((m) => Number(m[1])));
}

/** The source route of one documented operation: a route written with that exact URL before a template one. */
function sourceRoute(openApiPath: string, method: string): SourceRoute {
  const candidates = source.filter((r) => r.method === method && r.matches(openApiPath));
  const exact = candidates.filter((r) => r.literal);
  // Among templates, the one with the most fixed text: `${name}withouttasks` before `${name}`.
  const fixed = (r: SourceRoute) => r.written.replace(/\$\{[^}]*\}/g, "").length;
  const most = Math.max(...candidates.map(fixed));
  const chosen = exact.length > 0 ? exact : candidates.filter((r) => fixed(r) === most);
  expect(
    chosen.map((r) => r.written),
    `${method.toUpperCase()} ${openApiPath} in the source`,
  ).toHaveLength(1);
  return chosen[0]!;
}

/** The Fastify route of one documented operation, for its schema. */
function registeredRoute(openApiPath: string, method: string): RouteOptions {
  const route = registered.find(
    (r) =>
      r.url.replace(/:([A-Za-z0-9_]+)/g, "{$1}").replace(/\*$/, "{*}") === openApiPath &&
      (Array.isArray(r.method) ? r.method : [r.method]).some((m) => m.toLowerCase() === method),
  );
  expect(route, `${method.toUpperCase()} ${openApiPath} registered`).toBeDefined();
  return route!;
}

/** What one operation can answer: its handler's statuses, and 400 when its route validates a body or query. */
function answerable(openApiPath: string, method: string): Map<number, string[]> {
  const statuses = new Map(sourceRoute(openApiPath, method).statuses);
  const schema = registeredRoute(openApiPath, method).schema as { body?: unknown; querystring?: unknown } | undefined;
  if (schema?.body || schema?.querystring) statuses.set(400, [...(statuses.get(400) ?? []), "route schema"]);
  return statuses;
}

const operations = () =>
  Object.entries(doc.paths).flatMap(([p, ops]) => Object.entries(ops).map(([method, op]) => ({ path: p, method, op })));

describe("documented statuses (SPEC §7.1, §7.3)", () => {
  it("every operation of the document names exactly the statuses its code can answer", () => {
    const drift: string[] = [];
    for (const { path: p, method, op } of operations()) {
      const documented = namedStatuses(op.description ?? "");
      for (const key of Object.keys(op.responses ?? {})) if (/^[45]\d\d$/.test(key)) documented.add(Number(key));
      const name = `${method.toUpperCase()} ${p}`;
      const can = answerable(p, method);
      const unreachable = UNREACHABLE_HERE[name] ?? {};
      for (const status of Object.keys(unreachable).map(Number)) {
        if (!can.has(status))
          drift.push(`${name}: UNREACHABLE_HERE lists ${status}, which the analysis no longer finds`);
        if (documented.has(status)) drift.push(`${name}: UNREACHABLE_HERE lists ${status}, which the path documents`);
        can.delete(status);
      }
      for (const [status, where] of can)
        if (!(status in SCOPE_WIDE) && !documented.has(status))
          drift.push(`${name} can answer ${status} (${where.slice(0, 3).join(", ")}) but does not document it`);
      for (const status of documented)
        if (!(status in SCOPE_WIDE) && !can.has(status)) drift.push(`${name} documents ${status} but cannot answer it`);
    }
    expect(drift).toEqual([]);
  });

  it("the document's description names the statuses every path can answer", () => {
    for (const [status, pattern] of Object.entries(SCOPE_WIDE))
      expect(doc.info.description, `status ${status}`).toMatch(pattern);
  });

  it("covers every operation, and the analysis reaches into procedures (no vacuous pass)", () => {
    const all = operations();
    expect(all.length).toBeGreaterThan(60);
    // Each path behind the Bearer token reaches the session check of the procedure or route it calls.
    for (const { path: p, method, op } of all) {
      const bearer = ((op as { security?: unknown[] }).security ?? []).length > 0;
      if (bearer) expect(answerable(p, method).has(401), `${method.toUpperCase()} ${p} can answer 401`).toBe(true);
    }
  });
});

describe("the two cases where the document and the code disagreed", () => {
  it("POST /auth/login answers a deactivated account 401, as every path answers its session", async () => {
    const staff = await h.createUser("Staff");
    const token = await h.token(staff);
    await h.deps.db.updateTable("users").set({ active: false }).where("id", "=", staff.id).execute();
    const login = await app.inject({
      method: "POST",
      url: "/auth/login",
      payload: { email: staff.email, password: TEST_PASSWORD },
    });
    expect(login.statusCode, login.body).toBe(401);
    expect(login.json()).toEqual({
      status: "failed",
      success: false,
      message: "Your account has been deactivated. Contact an administrator.",
    });
    const elsewhere = await app.inject({
      method: "GET",
      url: "/api/tasks",
      headers: { authorization: `Bearer ${token}` },
    });
    expect(elsewhere.statusCode).toBe(401);
  });

  it("POST /api/createnotification answers an unknown recipient 400, as an unknown staff member named in a body is", async () => {
    const admin = await h.createUser("Admin");
    const headers = { authorization: `Bearer ${await h.token(admin)}` };
    const nobody = "00000000-0000-4000-8000-000000000000";
    const notification = await app.inject({
      method: "POST",
      url: "/api/createnotification",
      headers,
      payload: { senderId: admin.id, message: "Hello", link: "/dashboard", recipientId: nobody },
    });
    expect(notification.statusCode, notification.body).toBe(400);
    expect(notification.json()).toMatchObject({ message: "The recipient does not exist." });
    const assign = await app.inject({
      method: "POST",
      url: "/api/createtask",
      headers,
      payload: { audio_id: nobody, assigned_to: nobody },
    });
    expect(assign.statusCode, assign.body).toBe(400);
    const now = (await app.inject({ method: "GET", url: "/api/openapi.json" })).json<{
      paths: Record<string, Record<string, Operation>>;
    }>();
    expect(now.paths["/api/createnotification"]!.post!.description).toMatch(/400 [^.]*unknown sender or recipient/);
    expect(now.paths["/auth/login"]!.post!.description).not.toMatch(/403/);
  });
});
