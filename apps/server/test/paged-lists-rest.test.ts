import { afterAll, describe, expect, it } from "vitest";
import { appWithUsers, assignOverRest, failed, fixture, uploadAudio } from "./fixtures/app-harness";

/**
 * Every paged REST list (SPEC §3 Pagination, §7.1 `?page&limit`) answers the RFC 8288 `Link`
 * header beside X-Total-Pages, and its OpenAPI description says it is paged and how.
 */

const { h, admin, staffA, staffB, adminToken, tokenA } = await appWithUsers();
afterAll(() => h.close());

/** Three Control and one Dementia audio assigned to staffA with a saved transcript, two unassigned of each category. */
const assigned: string[] = [];
for (const name of ["paged_c1", "paged_c2", "paged_c3"]) {
  const audio = await uploadAudio(h, adminToken, { name: `${name}.wav`, content: await fixture("hello.wav") });
  await assignOverRest(h, adminToken, audio._id, staffA);
  await h.caller(staffA).transcripts.save({ audioId: audio._id, text: `Transcript of ${name}` });
  assigned.push(audio._id);
}
const dementia = await uploadAudio(
  h,
  adminToken,
  { name: "paged_d1.wav", content: await fixture("hello.wav") },
  "Dementia",
);
await assignOverRest(h, adminToken, dementia._id, staffA);
for (const [name, category] of [
  ["paged_u1", "Control"],
  ["paged_u2", "Control"],
  ["paged_u3", "Dementia"],
  ["paged_u4", "Dementia"],
] as const) {
  await uploadAudio(h, adminToken, { name: `${name}.wav`, content: await fixture("hello.wav") }, category);
}
for (const audioId of assigned) await h.caller(admin).recommendations.create({ audioId, staffId: staffB.id });
for (const code of ["PG0001", "PG0002", "PG0003"])
  await h.caller(admin).participants.create({ code, group: "Control" } as never);

/** `Link: <url>; rel="x", …` as { rel: url }; fails on anything that is not one link-value per rel. */
function links(header: string | string[] | number | undefined): Record<string, string> {
  expect(typeof header, "Link header").toBe("string");
  const out: Record<string, string> = {};
  for (const part of (header as string).split(/,\s*(?=<)/)) {
    const match = /^<([^<>\s]+)>; rel="(first|prev|next|last)"$/.exec(part);
    expect(match, `link-value ${part}`).not.toBeNull();
    expect(out[match![2]!], `one rel="${match![2]}"`).toBeUndefined();
    out[match![2]!] = match![1]!;
  }
  return out;
}

/** The query of a root-relative URL as a plain object. */
function query(url: string): Record<string, string> {
  expect(url.startsWith("/"), url).toBe(true);
  return Object.fromEntries(new URL(url, "http://x").searchParams);
}

/** Every paged list: its path (with {id} filled in), the caller's token and how many rows it has at least. */
const LISTS: Array<{ path: string; template: string; token: string; rows: number; maxLimit?: number }> = [
  { path: "/api/audios/control", template: "/api/audios/control", token: adminToken, rows: 5 },
  { path: "/api/audios/dementia", template: "/api/audios/dementia", token: adminToken, rows: 3 },
  {
    path: "/api/audios/controlwithouttasks",
    template: "/api/audios/controlwithouttasks",
    token: adminToken,
    rows: 2,
    maxLimit: 200,
  },
  {
    path: "/api/audios/dementiawithouttasks",
    template: "/api/audios/dementiawithouttasks",
    token: adminToken,
    rows: 2,
    maxLimit: 200,
  },
  { path: "/api/tasks", template: "/api/tasks", token: adminToken, rows: 4 },
  { path: `/api/tasks/user/${staffA.id}`, template: "/api/tasks/user/{id}", token: tokenA, rows: 4 },
  { path: "/api/submissions", template: "/api/submissions", token: adminToken, rows: 3 },
  { path: `/api/usersubmissions/${staffA.id}`, template: "/api/usersubmissions/{userId}", token: tokenA, rows: 3 },
  { path: "/api/recommendedrecordings", template: "/api/recommendedrecordings", token: adminToken, rows: 3 },
  {
    path: `/api/recommendedrecordings/user/${staffB.id}`,
    template: "/api/recommendedrecordings/user/{userId}",
    token: adminToken,
    rows: 3,
  },
  { path: "/api/exports", template: "/api/exports", token: adminToken, rows: 0 },
  { path: "/api/participants", template: "/api/participants", token: adminToken, rows: 3 },
];

describe("paged REST lists: the Link header (RFC 8288)", () => {
  it.each(LISTS)("$template gives first, next and last on page 1 and keeps limit", async ({ path, token, rows }) => {
    const res = await h.call("GET", `${path}?limit=1`, token);
    expect(res.statusCode, res.body).toBe(200);
    const pages = Math.max(1, rows);
    expect(Number(res.headers["x-total-pages"])).toBe(rows);
    const rel = links(res.headers.link);
    expect(rel.first && query(rel.first)).toEqual({ limit: "1", page: "1" });
    expect(rel.last && query(rel.last)).toEqual({ limit: "1", page: String(pages) });
    expect(rel.prev).toBeUndefined();
    if (pages > 1) expect(query(rel.next!)).toEqual({ limit: "1", page: "2" });
    else expect(rel.next).toBeUndefined();
    for (const url of Object.values(rel)) expect(url.split("?")[0]).toBe(path);
  });

  it("gives prev and next in the middle, no next on the last page, and follows to the same rows", async () => {
    const page2 = await h.call("GET", "/api/tasks?page=2&limit=1", adminToken);
    expect(links(page2.headers.link)).toEqual({
      first: "/api/tasks?page=1&limit=1",
      prev: "/api/tasks?page=1&limit=1",
      next: "/api/tasks?page=3&limit=1",
      last: "/api/tasks?page=4&limit=1",
    });
    const last = await h.call("GET", links(page2.headers.link).last!, adminToken);
    expect(last.statusCode, last.body).toBe(200);
    expect(links(last.headers.link)).toEqual({
      first: "/api/tasks?page=1&limit=1",
      prev: "/api/tasks?page=3&limit=1",
      last: "/api/tasks?page=4&limit=1",
    });
    // Walking next from page 1 visits every task once.
    const seen: string[] = [];
    let url: string | undefined = "/api/tasks?limit=1";
    while (url) {
      const res = await h.call("GET", url, adminToken);
      seen.push(...res.json<{ tasks: Array<{ _id: string }> }>().tasks.map((t) => t._id));
      url = links(res.headers.link).next;
    }
    expect(seen).toHaveLength(4);
    expect(new Set(seen).size).toBe(4);
  });

  it("keeps the other query parameters (a filter) in every link", async () => {
    const res = await h.call("GET", "/api/submissions?status=needs_review&limit=1&page=2", adminToken);
    expect(res.statusCode, res.body).toBe(200);
    for (const url of Object.values(links(res.headers.link)))
      expect(query(url)).toMatchObject({ status: "needs_review", limit: "1" });
  });

  it("past the last page gives prev as the last page, and no next", async () => {
    const res = await h.call("GET", "/api/tasks?page=9&limit=2", adminToken);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ tasks: unknown[] }>().tasks).toEqual([]);
    expect(links(res.headers.link)).toEqual({
      first: "/api/tasks?page=1&limit=2",
      prev: "/api/tasks?page=2&limit=2",
      last: "/api/tasks?page=2&limit=2",
    });
  });

  it("percent-encodes what a client sent, so no value can end a link or add one", async () => {
    const hostile = encodeURIComponent('x>; rel="next", <https://evil.example/');
    const res = await h.call("GET", `/api/participants?limit=1&search=PG&junk=${hostile}`, adminToken);
    expect(res.statusCode, res.body).toBe(200);
    const rel = links(res.headers.link);
    expect(Object.keys(rel).sort()).toEqual(["first", "last", "next"]);
    expect(query(rel.next!)).toMatchObject({ junk: 'x>; rel="next", <https://evil.example/', search: "PG" });
    expect(res.headers.link).not.toMatch(/evil\.example\/>|<https:/);
  });
});

describe("paged REST lists: hostile page and limit", () => {
  for (const bad of ["0", "-1", "abc", "1.5", "1e3", "%20", "2%00"]) {
    it(`page=${bad} answers 400 without a Link header`, async () => {
      const res = await h.call("GET", `/api/tasks?page=${bad}`, adminToken);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.headers.link).toBeUndefined();
    });
  }

  it.each(LISTS)(
    "$template: an oversized page answers 400 or an empty page, never 500",
    async ({ path, token, maxLimit }) => {
      for (const q of ["page=99999999", "page=9007199254740993", `page=${"1".repeat(400)}`]) {
        const res = await h.call("GET", `${path}?${q}`, token);
        expect([200, 400], `${q.slice(0, 24)}: ${res.body}`).toContain(res.statusCode);
        if (res.statusCode === 200) {
          const body = res.json<unknown[] | Record<string, unknown>>();
          const rows = Array.isArray(body) ? body : Object.values(body).find(Array.isArray);
          expect(rows, q.slice(0, 24)).toEqual([]);
          expect(links(res.headers.link).next).toBeUndefined();
        }
      }
      const tooMany = await h.call("GET", `${path}?limit=${(maxLimit ?? 100) + 1}`, token);
      expect(tooMany.statusCode, tooMany.body).toBe(400);
      expect(tooMany.headers.link).toBeUndefined();
    },
  );
});

describe("the submission lists' REST default page size (SPEC §7.1, §9)", () => {
  it("is 10 when limit is left out; the web's tRPC list still asks for its own 20", async () => {
    for (let i = 0; i < 9; i += 1) {
      const audio = await uploadAudio(h, adminToken, {
        name: `paged_more${i}.wav`,
        content: await fixture("hello.wav"),
      });
      await assignOverRest(h, adminToken, audio._id, staffA);
      await h.caller(staffA).transcripts.save({ audioId: audio._id, text: `More ${i}` });
    }
    // 12 submissions of staffA: 10 on page 1, two pages.
    for (const path of ["/api/submissions", `/api/usersubmissions/${staffA.id}`]) {
      const res = await h.call("GET", path, tokenA);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json<{ submissions: unknown[]; pagination: { totalPages: number } }>();
      expect(body.submissions).toHaveLength(10);
      expect(body.pagination.totalPages).toBe(2);
      expect(query(links(res.headers.link).next!)).toEqual({ page: "2" });
    }
    const web = await h.caller(staffA).submissions.list({ page: 1, limit: 20 });
    expect(web.items).toHaveLength(12);
  });

  it("still refuses a bad limit with the same message", async () => {
    const res = await h.call("GET", "/api/submissions?limit=0", tokenA);
    expect(res.json()).toEqual(failed("limit must be a positive whole number."));
  });
});

describe("the OpenAPI description of each paged list", () => {
  it("says it is paged, its default page size and the Link header", async () => {
    const doc = (await h.call("GET", "/api/openapi.json", null)).json<{
      paths: Record<string, Record<string, { description: string }>>;
    }>();
    const defaults: Record<string, number> = {
      "/api/audios/control": 50,
      "/api/audios/dementia": 50,
      "/api/audios/dementiawithouttasks": 100,
      "/api/tasks": 10,
      "/api/submissions": 10,
      "/api/usersubmissions/{userId}": 10,
      "/api/participants": 20,
    };
    for (const { template, maxLimit } of LISTS) {
      const description = doc.paths[template]?.get?.description ?? "";
      expect(description, template).toMatch(/Paged: `page` from 1/);
      expect(description, template).toMatch(/`Link` header \(RFC 8288\)/);
      expect(description, template).toContain(`at most ${maxLimit ?? 100})`);
      if (defaults[template]) expect(description, template).toContain(`(${defaults[template]} by default`);
    }
  });
});
