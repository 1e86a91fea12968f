import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { CompiledQuery, sql } from "kysely";
import { appRouter, createCallerFactory, type SessionUser } from "@tafsiri/api";
import { createHarness } from "@tafsiri/api/testing/harness";
import { GENERIC_PLAN_MARK } from "@tafsiri/db/generic-plans";
import { QueryRecorder } from "@tafsiri/db/testing/query-recorder";
import { seedProject } from "../../../bench/support/seed-project";

// Decisions 010 and 016: the plans of the main list, search and count queries, on `npm run seed`'s
// project data (20,000 audios, 40 staff), so a lost index or a count that scans fails the suite.
// Each case calls the real procedure through a database that records its statements, then asks
// PostgreSQL for the plan of each (EXPLAIN, without running them again). PGlite's planner
// statistics differ, so the plans are checked on PostgreSQL (DATABASE_URL).

const onPostgres = inject("dbTemplate").kind === "postgres";
if (!onPostgres) console.info("list-plans.test.ts: the plan checks need PostgreSQL; set DATABASE_URL to run them.");

/** Tables large enough that reading all of them for one page or count is the bug this test catches. */
const SCAN_OF_BIG_TABLE = /Seq Scan on (audios|tasks|submissions|audit_log|notifications|recommendations|comments)\b/;

const h = await createHarness();
const db = h.deps.db;
const caller = createCallerFactory(appRouter);
let admin: SessionUser;
let staff: SessionUser;

beforeAll(async () => {
  if (!onPostgres) return;
  await seedProject(db, {
    audios: 20_000,
    staff: 40,
    staffPassword: "Plan#Staff2026",
    admin: { email: "plans@seed.test", username: "plans", password: "Adm1n!strong" },
  });
  const { rows } = await sql<SessionUser & { kind: string }>`
    (select 'admin' as kind, id, username, email, role, active from users where email = 'plans@seed.test')
    union all
    (select 'staff', u.id, u.username, u.email, u.role, u.active from users u
     join assignee_work_counts c on c.assignee_id = u.id where u.role = 'Staff' and u.active
     order by c.tasks desc limit 1)`.execute(db);
  const pick = (kind: string): SessionUser => {
    const row = rows.find((r) => r.kind === kind)!;
    return { id: row.id, username: row.username, email: row.email, role: row.role, active: row.active };
  };
  admin = pick("admin");
  staff = pick("staff");
}, 300_000);
afterAll(() => h.close());

type Caller = ReturnType<typeof caller>;

/**
 * The plans (EXPLAIN text) of every statement `call` runs as `user`, joined; with `analyze`, as
 * run (EXPLAIN ANALYZE: each node's actual rows).
 */
async function plansOf(
  user: SessionUser,
  call: (c: Caller) => Promise<unknown>,
  { analyze = false }: { analyze?: boolean } = {},
): Promise<string> {
  const explain = analyze ? "explain (analyze)" : "explain";
  const recorder = new QueryRecorder();
  await call(caller({ ...h.deps, db: db.withPlugin(recorder), user }));
  const plans: string[] = [];
  for (const query of recorder.executed) {
    const rows = query.sql.endsWith(GENERIC_PLAN_MARK)
      ? await genericPlanOf(query.sql, query.parameters, explain)
      : (
          await db.executeQuery<Record<string, string>>(
            CompiledQuery.raw(`${explain} ${query.sql}`, [...query.parameters]),
          )
        ).rows;
    plans.push(rows.map((r) => Object.values(r)[0]).join("\n"));
  }
  return plans.join("\n");
}

/**
 * The plan a statement marked withGenericPlan runs with: its generic plan (planned without its
 * parameters' values), as EXPLAIN EXECUTE shows it for a statement prepared under
 * `plan_cache_mode = force_generic_plan`.
 */
let genericPlanChecks = 0;

/** A parameter value of a recorded statement as an SQL literal. */
function literalOf(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "number" || typeof value === "bigint" || typeof value === "boolean") return String(value);
  const text = value instanceof Date ? value.toISOString() : String(value);
  return `'${text.replaceAll("'", "''")}'`;
}

async function genericPlanOf(
  text: string,
  parameters: readonly unknown[],
  explain: string,
): Promise<Array<Record<string, string>>> {
  return db.transaction().execute(async (trx) => {
    await sql`set local plan_cache_mode = force_generic_plan`.execute(trx);
    const name = `generic_plan_check_${++genericPlanChecks}`;
    await trx.executeQuery(CompiledQuery.raw(`prepare ${name} as ${text}`));
    // EXPLAIN EXECUTE takes its arguments as SQL literals, not bound parameters.
    const literals = parameters.map(literalOf).join(", ");
    const explained = await trx.executeQuery<Record<string, string>>(
      CompiledQuery.raw(`${explain} execute ${name}${parameters.length ? `(${literals})` : ""}`),
    );
    await trx.executeQuery(CompiledQuery.raw(`deallocate ${name}`));
    return explained.rows;
  });
}

/** In an EXPLAIN ANALYZE `plan`, the most rows one scan of `index` returned (0 when none ran). */
function entriesWalked(plan: string, index: string): number {
  return Math.max(
    0,
    ...plan
      .split("\n")
      .filter((line) => line.includes(`using ${index} `))
      .map((line) => Number(/actual time=[\d.]+\.\.[\d.]+ rows=(\d+)/.exec(line)?.[1] ?? 0)),
  );
}

/** Expects `plan` to use every index named, and no full scan of a big table. */
function expectPlan(plan: string, indexes: string[]): void {
  expect(plan).not.toMatch(SCAN_OF_BIG_TABLE);
  for (const index of indexes) expect(plan).toContain(index);
}

describe.skipIf(!onPostgres)("the plans of the lists at 20,000 audios (PostgreSQL)", () => {
  it("Tasks: the page walks tasks (created_at, id) or the assignee's index; counts are kept", async () => {
    const pages = (await caller({ ...h.deps, user: admin }).tasks.list({ page: 1, limit: 10 })).totalPages;
    expect(pages).toBeGreaterThan(1000);
    // Decision 030: every page may seek from its nearest page anchor (page_anchors) instead of an OFFSET.
    for (const page of [1, Math.ceil(pages / 2), pages]) {
      expectPlan(await plansOf(admin, (c) => c.tasks.list({ page, limit: 10 })), [
        "tasks_created_at_id_idx",
        "list_counts",
        "page_anchors",
      ]);
    }
    expectPlan(await plansOf(staff, (c) => c.tasks.list({ page: 1, limit: 10 })), [
      "tasks_assigned_to_created_at_id_idx",
      "assignee_work_counts",
    ]);
  });

  it("Manage Audios and the unassigned audios: index walks by category, kept counts", async () => {
    expectPlan(await plansOf(admin, (c) => c.audios.list({ category: "Control", page: 100, limit: 50 })), [
      "audios_category_created_at_id_idx",
      "list_counts",
      "page_anchors",
    ]);
    expectPlan(await plansOf(admin, (c) => c.audios.unassigned({ category: "Dementia", page: 1, limit: 100 })), [
      "audios_unassigned_page_idx",
      "list_counts",
    ]);
  });

  it("Submissions: each filter's page walks its index, the counts are kept, for admins and staff", async () => {
    const indexOf = {
      all: "submissions_updated_at_id_idx",
      needsReview: "submissions_needs_review_idx",
      approved: "submissions_approval_status_idx",
      rejected: "submissions_approval_status_idx",
    } as const;
    for (const status of ["all", "needsReview", "approved", "rejected"] as const) {
      const plan = await plansOf(admin, (c) => c.submissions.list({ page: 1, status }));
      // 'approved' may also walk the order's own index and filter: both are index walks.
      expectPlan(plan, ["list_counts"]);
      expect(plan).toMatch(
        status === "approved" || status === "rejected"
          ? /submissions_approval_status_idx|submissions_updated_at_id_idx/
          : new RegExp(indexOf[status]),
      );
    }
    // A staff member's page walks their own index; 'Needs review' may walk the (small) set of
    // submissions needing review instead: both are index walks.
    expectPlan(await plansOf(staff, (c) => c.submissions.list({ page: 1 })), [
      "submissions_assignee_updated_at_id_idx",
      "list_counts",
    ]);
    const needsReview = await plansOf(staff, (c) => c.submissions.list({ page: 1, status: "needsReview" }));
    expectPlan(needsReview, ["list_counts"]);
    expect(needsReview).toMatch(/submissions_assignee_updated_at_id_idx|submissions_needs_review_idx/);
  });

  it("Recommended Recordings, the bell and the Logs: index walks and kept counts", async () => {
    expectPlan(await plansOf(admin, (c) => c.recommendations.list({ page: 2, limit: 10 })), [
      "recommendations_created_at_id_idx",
      "list_counts",
    ]);
    const bell = await plansOf(admin, (c) => c.notifications.list({ limit: 20 }));
    expectPlan(bell, ["notifications_recipient_order_idx", "list_counts"]);
    // 'Show older' (SPEC §2.3): the next page seeks in the same index from the cursor's key
    // (base64url of "<created_at>_<id>", as notifications.list hands it out).
    const next = Buffer.from(`2026-11-01T00:00:00.000000Z_${crypto.randomUUID()}`).toString("base64url");
    expectPlan(await plansOf(admin, (c) => c.notifications.list({ limit: 20, cursor: next })), [
      "notifications_recipient_order_idx",
      "list_counts",
    ]);
    expectPlan(await plansOf(admin, (c) => c.logs.list({ page: 3 })), ["audit_log_created_at_id_idx", "list_counts"]);
    expectPlan(await plansOf(admin, (c) => c.logs.list({ actorId: staff.id })), ["audit_log_actor_created_at_id_idx"]);
  });

  it("Logs: a deep page is estimated as cheap as page 1 (its plan's cost does not grow with the offset)", async () => {
    // The Logs page is planned with its values (not generically). When the gated newest-first
    // branch was costed as a walk of `offset` rows, a deep page of 7.5 million entries passed
    // jit_above_cost and spent 100–300 ms compiling JIT code for a 1 ms statement.
    const totalCost = (plan: string) => Number(/cost=[\d.]+\.\.([\d.]+)/.exec(plan)?.[1]);
    const { totalPages } = await caller({ ...h.deps, user: admin }).logs.list({ page: 1 });
    expect(totalPages).toBeGreaterThan(100);
    const first = totalCost(await plansOf(admin, (c) => c.logs.list({ page: 1 })));
    for (const page of [Math.ceil(totalPages / 2), totalPages]) {
      expect(totalCost(await plansOf(admin, (c) => c.logs.list({ page })))).toBeLessThanOrEqual(first * 1.5);
    }
  });

  it("Review queue: every move's generic plan walks the filter's index to one row (decision 025)", async () => {
    // Planned once per connection (decision 017); a `limit $n` in its generic plan joined every
    // submission of the filter, so the LIMITs are written into the SQL.
    const first = await caller({ ...h.deps, user: admin }).submissions.reviewQueue({ filter: "needsReview" });
    expect(first.item).not.toBeNull();
    const from = { updatedAt: first.item!.updatedAt, id: first.item!.id };
    for (const filter of ["needsReview", "all", "approved", "rejected"] as const) {
      for (const move of ["first", "next", "previous", "at"] as const) {
        const plan = await plansOf(admin, (c) => c.submissions.reviewQueue({ filter, move, from }));
        expectPlan(plan, ["list_counts", "reviews_submission_idx"]);
      }
    }
  });

  it("Participants: the page walks (lower(code), id) in order, unfiltered or by group or consent; counts are kept", async () => {
    // Decision 024: the text_pattern_ops code indexes cannot give the collation's order, so a page
    // sorted every participant; the order indexes (migration 20261211000300) give it. Without a
    // search the total is kept in list_counts (decision 016, migration 20261211000400), not counted.
    const { totalPages } = await caller({ ...h.deps, user: admin }).participants.list({ page: 1 });
    expect(totalPages).toBeGreaterThan(50);
    for (const page of [1, totalPages]) {
      const plan = await plansOf(admin, (c) => c.participants.list({ page }));
      expectPlan(plan, ["participants_list_order_idx", "list_counts"]);
      expect(plan).not.toMatch(/Seq Scan on participants\b/);
    }
    expectPlan(await plansOf(admin, (c) => c.participants.list({ group: "Dementia", page: 2 })), [
      "participants_group_order_idx",
      "list_counts",
    ]);
    expectPlan(await plansOf(admin, (c) => c.participants.list({ consent: "given", page: 2 })), [
      "participants_consent_order_idx",
      "list_counts",
    ]);
    expectPlan(await plansOf(admin, (c) => c.participants.list({ group: "Control", consent: "given" })), [
      "list_counts",
    ]);
    // A code prefix counts its own range of participants_code_idx (10 of the seed's S000001…).
    expectPlan(await plansOf(admin, (c) => c.participants.list({ search: "S00012" })), ["participants_code_idx"]);
    // No page anchors (decision 030's are timestamps): a page past the middle is read from the far
    // end of the order index (pageFromNearerEnd), so the last page walks a page of entries, not all.
    const last = await plansOf(admin, (c) => c.participants.list({ page: totalPages }), { analyze: true });
    expect(entriesWalked(last, "participants_list_order_idx")).toBeLessThanOrEqual(20);
    const dementia = (await caller({ ...h.deps, user: admin }).participants.list({ group: "Dementia" })).totalPages;
    const lastOfGroup = await plansOf(admin, (c) => c.participants.list({ group: "Dementia", page: dementia }), {
      analyze: true,
    });
    expect(entriesWalked(lastOfGroup, "participants_group_order_idx")).toBeLessThanOrEqual(20);
  });

  it("Search: prefix matches walk lower(filename) in order instead of sorting every match", async () => {
    // 'control' starts the names of over half the audios.
    const plan = await plansOf(admin, (c) => c.search.audios({ q: "control" }));
    expectPlan(plan, ["audios_filename_lower_idx"]);
    const results = await caller({ ...h.deps, user: admin }).search.audios({ q: "control" });
    expect(results).toHaveLength(20);
    const names = results.map((r) => r.filename);
    expect(names).toEqual([...names].sort());
  });

  it("Unassigned audios and a staff member's submissions: a deep page walks index entries only, from the nearer end", async () => {
    // Neither list has page anchors (decision 030). The unassigned audios' page is read index-only
    // from audios_unassigned_page_idx (migration 20261211000500): a deep page read every skipped
    // audio's row. Both lists read a page past the middle from the far end of their index
    // (pageFromNearerEnd), so the last page walks about a page of entries, not the whole list.
    const limit = 10;
    const unassigned = await caller({ ...h.deps, user: admin }).audios.unassigned({
      category: "Control",
      page: 1,
      limit,
    });
    expect(unassigned.totalPages).toBeGreaterThan(10);
    for (const page of [1, Math.ceil(unassigned.totalPages / 2), unassigned.totalPages]) {
      const plan = await plansOf(admin, (c) => c.audios.unassigned({ category: "Control", page, limit }), {
        analyze: true,
      });
      expectPlan(plan, ["list_counts"]);
      expect(plan).toMatch(/Index Only Scan (Backward )?using audios_unassigned_page_idx/);
      expect(plan).not.toMatch(/Index Scan (Backward )?using audios_/);
      if (page === unassigned.totalPages)
        expect(entriesWalked(plan, "audios_unassigned_page_idx")).toBeLessThanOrEqual(limit);
    }
    const own = await caller({ ...h.deps, user: staff }).submissions.list({ page: 1 });
    expect(own.totalPages).toBeGreaterThan(3);
    const last = await plansOf(staff, (c) => c.submissions.list({ page: own.totalPages }), { analyze: true });
    expectPlan(last, ["submissions_assignee_updated_at_id_idx", "list_counts"]);
    expect(entriesWalked(last, "submissions_assignee_updated_at_id_idx")).toBeLessThanOrEqual(20);
  });

  it("A webhook's delivery log: its count kept, its last page read from the far end of the endpoint's index", async () => {
    // Decision 037 with decision 016: counting an endpoint's deliveries read all of its index
    // entries on every page, and its last page walked them all (migration 20261211001600).
    const { rows } = await sql<{ id: string }>`
      insert into webhook_endpoints (url, event_types, secret) values ('http://plans.example/hooks', '{comment.added}', 'whsec_plans')
      returning id`.execute(db);
    const endpointId = rows[0]!.id;
    await sql`
      with v as (
        insert into webhook_events (type, body, created_at)
        select 'comment.added', '{"plans":' || i || '}', now() - make_interval(secs => i) from generate_series(1, 3000) i
        returning id, created_at
      )
      insert into webhook_deliveries (endpoint_id, event_id, status, created_at)
      select ${endpointId}, v.id, 'delivered', v.created_at from v`.execute(db);
    await sql`analyze webhook_deliveries`.execute(db);
    const limit = 20;
    const first = await caller({ ...h.deps, user: admin }).webhooks.deliveries({ endpointId, page: 1, limit });
    expect(first.total).toBe(3000);
    const lastPage = Math.ceil(first.total / limit);
    for (const page of [1, lastPage]) {
      const plan = await plansOf(admin, (c) => c.webhooks.deliveries({ endpointId, page, limit }), { analyze: true });
      expectPlan(plan, ["webhook_deliveries_endpoint_idx", "list_counts"]);
      expect(entriesWalked(plan, "webhook_deliveries_endpoint_idx")).toBeLessThanOrEqual(limit);
    }
    await sql`delete from webhook_endpoints where id = ${endpointId}`.execute(db);
  });
});
