/**
 * The floor of the HTTP benchmark (bench/http.ts): plain Fastify + pg, no authentication, no
 * validation, one route: GET /tasks/:id answers the task row with that primary key as JSON (404
 * when there is none). Its pool has 10 connections, as the app's. GET /healthz answers 200. Run as
 * a child process: `tsx bench/support/pk-floor-server.ts` with PORT and DATABASE_URL.
 */
import Fastify from "fastify";
import pg from "pg";

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
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

const shutdown = async () => {
  await app.close();
  await pool.end();
  process.exit(0);
};
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);

await app.listen({ port: Number(process.env.PORT ?? 0), host: "127.0.0.1" });
