/**
 * The floor of the live-delivery benchmark (bench/live.ts): a plain Fastify + @fastify/websocket
 * server that does nothing but broadcast. Clients connect to ws://127.0.0.1:PORT/ws;
 * POST /broadcast { seq, sizes } notes the time (`at`, ISO, like a live event's commit time),
 * then sends every connected client one JSON text message per entry of `sizes`
 * ({"seq":…,"i":…,"at":"…","pad":"…"} padded to exactly that many bytes), each message built
 * once and sent to all, and answers { clients } (how many it sent to).
 * GET /healthz answers 200. Run as a child process: `tsx bench/support/floor-server.ts` with PORT.
 */
import Fastify from "fastify";
import websocket from "@fastify/websocket";
import type { WebSocket } from "ws";

/** A message of exactly `size` bytes (at least the unpadded JSON's length). */
function floorMessage(seq: number, i: number, at: string, size: number): string {
  const bare = JSON.stringify({ seq, i, at, pad: "" });
  return JSON.stringify({ seq, i, at, pad: "x".repeat(Math.max(0, size - bare.length)) });
}

const app = Fastify({ bodyLimit: 1024 * 1024 });
const clients = new Set<WebSocket>();

await app.register(websocket, { options: { maxPayload: 1024 * 1024 } });
app.get("/healthz", async () => ({ status: "ok" }));
app.get("/ws", { websocket: true }, (socket) => {
  clients.add(socket);
  socket.on("close", () => clients.delete(socket));
});
app.post<{ Body: { seq: number; sizes: number[] } }>("/broadcast", async (req) => {
  const { seq, sizes } = req.body;
  const at = new Date().toISOString();
  sizes.forEach((size, i) => {
    const text = floorMessage(seq, i, at, size);
    for (const socket of clients) socket.send(text);
  });
  return { clients: clients.size };
});

const shutdown = async () => {
  await app.close();
  process.exit(0);
};
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);

await app.listen({ port: Number(process.env.PORT ?? 0), host: "127.0.0.1" });
