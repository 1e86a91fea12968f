import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RouteOptions } from "fastify";
import { Validator } from "@seriousme/openapi-schema-validator";
import { createHarness, type TestHarness } from "@tafsiri/api/testing/harness";
import { buildApp } from "../src/app";

/** The OpenAPI path of a Fastify route: `/api/tasks/:id` → `/api/tasks/{id}`, `/files/*` → `/files/{*}`. */
function openApiPath(url: string): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, "{$1}").replace(/\*$/, "{*}");
}

interface Operation {
  description?: string;
  security?: unknown[];
  requestBody?: { content: Record<string, { example?: unknown; examples?: unknown }> };
  responses: Record<
    string,
    { description?: string; content?: Record<string, { example?: unknown; examples?: unknown }> }
  >;
}

let h: TestHarness;
let app: Awaited<ReturnType<typeof buildApp>>;
let doc: { openapi: string; paths: Record<string, Record<string, Operation>>; components: { securitySchemes: object } };
const routes: RouteOptions[] = [];

beforeAll(async () => {
  h = await createHarness();
  app = await buildApp({
    deps: h.deps,
    settings: { MAX_UPLOAD_BYTES: 1024 * 1024, WEB_DIST: undefined },
    onRoute: (route) => routes.push(route),
  });
  await app.ready();
  const res = await app.inject({ method: "GET", url: "/api/openapi.json" });
  expect(res.statusCode).toBe(200);
  doc = res.json();
});
afterAll(async () => {
  await app.close();
  await h.close();
});

/** The routes integrators call: the REST scope (/api, /auth), /files and /healthz; not tRPC, the docs or the web app. */
function documentedRoutes(): Array<{ method: string; path: string }> {
  return routes
    .filter(
      (r) =>
        /^\/(api|auth|files)\/|^\/healthz$/.test(r.url) &&
        !r.url.startsWith("/api/docs") &&
        r.url !== "/api/openapi.json",
    )
    .flatMap((r) =>
      (Array.isArray(r.method) ? r.method : [r.method])
        .filter((m) => m !== "HEAD")
        .map((m) => ({ method: m.toLowerCase(), path: openApiPath(r.url) })),
    );
}

describe("GET /api/openapi.json", () => {
  it("is a valid OpenAPI 3.1 document", async () => {
    expect(doc.openapi).toBe("3.1.0");
    const result = await new Validator().validate(structuredClone(doc) as Parameters<Validator["validate"]>[0]);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("lists every registered REST route, and nothing else", () => {
    const registered = documentedRoutes();
    expect(registered.length).toBeGreaterThan(20);
    for (const { method, path } of registered)
      expect(doc.paths[path]?.[method], `${method.toUpperCase()} ${path}`).toBeDefined();
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => `${method} ${path}`),
    );
    expect(documented.sort()).toEqual(registered.map((r) => `${r.method} ${r.path}`).sort());
  });

  it("describes each operation with its SPEC section, its security and an example of each request and answer", () => {
    expect(doc.components.securitySchemes).toMatchObject({
      bearerAuth: { type: "http", scheme: "bearer", bearerFormat: "JWT" },
      // Decision 036: API tokens, sent the same way.
      apiToken: { type: "http", scheme: "bearer", bearerFormat: "tfs_…" },
    });
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const name = `${method.toUpperCase()} ${path}`;
        expect(op.description, name).toMatch(/SPEC §\d|ARCHITECTURE/);
        expect(Array.isArray(op.security), `${name} declares its security`).toBe(true);
        for (const media of Object.values(op.requestBody?.content ?? {})) {
          expect(media.example ?? media.examples, `${name} request example`).toBeDefined();
        }
        // The tus protocol (decision 020) answers 201 or 204 with no body: its headers are the answer.
        const tusAnswer = /^\/api\/uploads(\/\{id\})?$/.test(path) && (op.responses["201"] ?? op.responses["204"]);
        if (tusAnswer) {
          expect(tusAnswer.description, `${name} tus answer`).toMatch(/No body/);
        } else {
          // 200, 201 for a record made (POST /api/participants), or 202 for a change that goes on in the background (POST /api/exports).
          const ok = Object.values((op.responses["200"] ?? op.responses["201"] ?? op.responses["202"])?.content ?? {});
          expect(ok.length, `${name} 200 answer`).toBeGreaterThan(0);
          if (path !== "/files/{*}")
            for (const media of ok) {
              // A file answer (text/csv, application/pdf) carries its example in its schema.
              const schemaExamples = (media as { schema?: { examples?: unknown } }).schema?.examples;
              expect(media.example ?? media.examples ?? schemaExamples, `${name} answer example`).toBeDefined();
            }
        }
        expect(
          op.responses["4XX"]?.content?.["application/json"] ?? op.responses["5XX"]?.content?.["application/json"],
          `${name} failure answer`,
        ).toBeDefined();
      }
    }
  });

  it("asks for the Bearer token on every path but sign-in, password reset, files and the health check", () => {
    const open = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops)
        .filter(([, op]) => (op.security ?? []).length === 0)
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    expect(open.sort()).toEqual([
      "GET /api/backups/{name}/file",
      "GET /auth/passwordreset/{email}",
      "GET /files/audios/{file}",
      "GET /files/exports/{file}",
      "GET /files/initial-transcripts/{file}",
      "GET /files/recordings/{audioId}/{file}",
      "GET /files/transcripts/{audioId}/{versionId}/{file}",
      "GET /files/{*}",
      "GET /healthz",
      "POST /auth/login",
      "POST /auth/resetpassword",
    ]);
  });
});

describe("GET /api/docs", () => {
  it("serves the reference page and its assets from the package, without a CDN", async () => {
    const page = await app.inject({ method: "GET", url: "/api/docs/" });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toMatch(/text\/html/);
    expect(page.body).not.toMatch(/https?:\/\/(?!localhost)/);
    const bundle = await app.inject({ method: "GET", url: "/api/docs/static/swagger-ui-bundle.js" });
    expect(bundle.statusCode).toBe(200);
  });
});
