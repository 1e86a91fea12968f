/**
 * The floor of the upload benchmark (bench/uploads.ts): a plain Fastify + @fastify/multipart
 * server that does nothing but stream an uploaded file to disk. POST /upload with a
 * multipart/form-data body: its text fields are skipped, its one file part is piped
 * (stream/promises pipeline) into a new file in UPLOAD_DIR, and the answer is { bytes } (what was
 * written), 413 past MAX_UPLOAD_BYTES (default 512 MB, as the real server's). No check, no
 * database: the least any server must do to receive a file. GET /healthz answers 200.
 * Run as a child process: `tsx bench/support/upload-floor-server.ts` with PORT and UPLOAD_DIR.
 */
import { randomUUID } from "node:crypto";
import { createWriteStream, promises as fs } from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import Fastify from "fastify";
import multipart from "@fastify/multipart";

const uploadDir = process.env.UPLOAD_DIR;
if (!uploadDir) throw new Error("UPLOAD_DIR must name the folder uploads are written to");
const maxBytes = Number(process.env.MAX_UPLOAD_BYTES ?? 512 * 1024 * 1024);

const app = Fastify();
await app.register(multipart, { limits: { fileSize: maxBytes, files: 1 } });
app.get("/healthz", async () => ({ status: "ok" }));
app.post("/upload", async (req, reply) => {
  const part = await req.file();
  if (!part) return reply.code(400).send({ message: "no file part" });
  const target = path.join(uploadDir, randomUUID());
  await pipeline(part.file, createWriteStream(target));
  if (part.file.truncated) {
    await fs.rm(target, { force: true });
    return reply.code(413).send({ message: "file too large" });
  }
  return { bytes: (await fs.stat(target)).size };
});

const shutdown = async () => {
  await app.close();
  process.exit(0);
};
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);

await app.listen({ port: Number(process.env.PORT ?? 0), host: "127.0.0.1" });
