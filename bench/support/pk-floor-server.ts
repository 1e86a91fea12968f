/**
 * The floor of the HTTP benchmark (bench/http.ts): plain Fastify + pg, no authentication, no
 * validation. GET /tasks/:id answers the task row with that primary key as JSON (404 when there is
 * none): the floor. GET /task-page?page=N answers page N of 10 of the admin's task list with the
 * SQL Tafsiri's tasks.list runs (the kept count and the page's rows, as a named statement with a
 * generic plan, as Tafsiri runs it), as `{ items, totalPages }` with the rows as pg gives them: the
 * same SQL without the framework, for comparison. Its pool has 10 connections, as the app's.
 * GET /healthz answers 200. Run as a child process: `tsx bench/support/pk-floor-server.ts` with
 * PORT and DATABASE_URL.
 */
import Fastify from "fastify";
import pg from "pg";

const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: 10,
  options: "-c plan_cache_mode=force_generic_plan",
});
/** The admin task list's page query as packages/db/src/repositories/tasks.ts builds it (2026-11-24). */
const TASK_PAGE_SQL = `select "p".*, "c"."total" from (select coalesce(sum(n), 0) as "total" from "list_counts" where "list_counts"."key" = $1) as "c" left join lateral (select "tasks"."id", "tasks"."audio_id", "tasks"."created_at", "tasks"."translation_status", "tasks"."recording_status", "tasks"."is_complete", "audios"."filename", "audios"."category", "users"."id" as "assigned_to_id", "users"."username" as "assigned_to_username", "submissions"."id" as "submission_id", "submissions"."translation_script_approval_status", "submissions"."recorded_audio_approval_status" from "tasks" left join "audios" on "audios"."id" = "tasks"."audio_id" left join "users" on "users"."id" = "tasks"."assigned_to" left join "submissions" on "submissions"."task_id" = "tasks"."id" where "tasks"."id" = any(array((select "tasks"."id" from "tasks" order by "tasks"."created_at" desc, "tasks"."id" desc limit $2 offset $3))) order by "tasks"."created_at" desc, "tasks"."id" desc) as "p" on true order by "p"."created_at" desc, "p"."id" desc`;
const app = Fastify();

app.get("/healthz", async () => ({ status: "ok" }));
app.get<{ Params: { id: string } }>("/tasks/:id", async (req, reply) => {
  const { rows } = await pool.query(
    "select id, audio_id, assigned_to, translation_status, recording_status, is_complete, created_at from tasks where id = $1",
    [req.params.id],
  );
  if (rows.length === 0) return reply.code(404).send({ message: "Not found" });
  return rows[0];
});

app.get<{ Querystring: { page?: string } }>("/task-page", async (req) => {
  const page = Math.max(1, Number(req.query.page ?? 1));
  const { rows } = await pool.query({ name: "task_page", text: TASK_PAGE_SQL, values: ["tasks", 10, (page - 1) * 10] });
  const total = Number(rows[0]?.total ?? 0);
  return { items: rows.filter((row) => row.id !== null), totalPages: Math.ceil(total / 10) };
});

const shutdown = async () => {
  await app.close();
  await pool.end();
  process.exit(0);
};
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);

await app.listen({ port: Number(process.env.PORT ?? 0), host: "127.0.0.1" });
