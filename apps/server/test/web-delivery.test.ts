import { once } from "node:events";
import { readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { brotliDecompressSync, createBrotliDecompress, createGunzip, gunzipSync } from "node:zlib";
import Fastify from "fastify";
import { afterAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { initTRPC } from "@trpc/server";
import { DEFAULT_WEB_DIST } from "../src/app";
import { COMPRESS_THRESHOLD, registerCompression } from "../src/plugins/compression";
import { registerTrpcHttp } from "../src/routes/trpc-http";
import { appWithUsers, fixture, uploadAudio } from "./fixtures/app-harness";
import { listen } from "./fixtures/live-client";

// How the server delivers the built web app and its answers to a slow link: the build's
// precompressed files with long or no caching, other answers compressed on the fly from 1 KB, and nothing
// compressed that must not be (stored files, byte ranges, WebSocket upgrades, streamed tRPC batches).

const { h, adminToken } = await appWithUsers();
const baseUrl = await listen(h.app);
afterAll(() => h.close());

const manifest = JSON.parse(readFileSync(path.join(DEFAULT_WEB_DIST, ".vite/manifest.json"), "utf8")) as Record<
  string,
  { file: string; css?: string[] }
>;
/** The entry chunk and its CSS: hashed files under /assets/. */
const entryJs = manifest["index.html"]!.file;
const entryCss = manifest["index.html"]!.css![0]!;
const onDisk = (file: string) => readFileSync(path.join(DEFAULT_WEB_DIST, file));

const get = (url: string, headers: Record<string, string> = {}) => h.app.inject({ method: "GET", url, headers });
const IMMUTABLE = "public, max-age=31536000, immutable";

describe("the built web app", () => {
  it.each([entryJs, entryCss])(
    "sends %s precompressed in brotli or gzip, or as it is, cached for a year",
    async (file) => {
      const br = await get(`/${file}`, { "accept-encoding": "gzip, deflate, br" });
      expect(br.statusCode).toBe(200);
      expect(br.headers["content-encoding"]).toBe("br");
      expect(br.headers["cache-control"]).toBe(IMMUTABLE);
      expect(br.headers.vary).toBe("accept-encoding");
      expect(br.headers["content-type"]).toMatch(file.endsWith(".js") ? /javascript/ : /^text\/css/);
      expect(brotliDecompressSync(br.rawPayload).equals(onDisk(file))).toBe(true);
      // The build's own file, not one compressed on the fly.
      expect(br.rawPayload.equals(onDisk(`${file}.br`))).toBe(true);

      const gzip = await get(`/${file}`, { "accept-encoding": "gzip" });
      expect(gzip.headers["content-encoding"]).toBe("gzip");
      expect(gzip.headers["cache-control"]).toBe(IMMUTABLE);
      expect(gzip.headers.vary).toBe("accept-encoding");
      expect(gunzipSync(gzip.rawPayload).equals(onDisk(file))).toBe(true);

      for (const headers of [{}, { "accept-encoding": "identity" }] as Record<string, string>[]) {
        const plain = await get(`/${file}`, headers);
        expect(plain.statusCode).toBe(200);
        expect(plain.headers["content-encoding"]).toBeUndefined();
        expect(plain.headers["cache-control"]).toBe(IMMUTABLE);
        expect(plain.rawPayload.equals(onDisk(file))).toBe(true);
      }
    },
  );

  it.each(["/", "/index.html", "/signin", "/Audios", "/audiomanagement/transcript/123"])(
    "sends index.html at %s with no-cache, compressed when asked",
    async (url) => {
      const res = await get(url, { "accept-encoding": "br" });
      expect(res.statusCode).toBe(200);
      expect(res.headers["content-type"]).toMatch(/^text\/html/);
      expect(res.headers["cache-control"]).toBe("no-cache");
      expect(res.headers["content-encoding"]).toBe("br");
      expect(res.headers.vary).toBe("accept-encoding");
      expect(brotliDecompressSync(res.rawPayload).equals(onDisk("index.html"))).toBe(true);

      const plain = await get(url);
      expect(plain.headers["cache-control"]).toBe("no-cache");
      expect(plain.headers["content-encoding"]).toBeUndefined();
      expect(plain.rawPayload.equals(onDisk("index.html"))).toBe(true);
    },
  );

  it("does not serve the build manifest", async () => {
    const res = await get("/.vite/manifest.json");
    expect(res.body).not.toContain('"isEntry"');
  });
});

describe("answers compressed on the fly", () => {
  it("compresses a JSON answer above 1 KB when asked, and not one below", async () => {
    for (let i = 0; i < 12; i += 1) await h.createUser("Staff");
    const plain = await h.call("GET", "/auth/users", adminToken);
    expect(plain.statusCode).toBe(200);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(COMPRESS_THRESHOLD);

    // Straight to inject: the harness's call() reads every answer as JSON to check it against OpenAPI.
    const auth = { authorization: `Bearer ${adminToken}` };
    const br = await get("/auth/users", { ...auth, "accept-encoding": "br" });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers.vary).toContain("accept-encoding");
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json());

    const gzip = await get("/auth/users", { ...auth, "accept-encoding": "gzip" });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(JSON.parse(gunzipSync(gzip.rawPayload).toString())).toEqual(plain.json());

    const small = await get("/healthz", { "accept-encoding": "br, gzip" });
    expect(small.statusCode).toBe(200);
    expect(small.rawPayload.length).toBeLessThan(COMPRESS_THRESHOLD);
    expect(small.headers["content-encoding"]).toBeUndefined();
    expect(small.json()).toEqual({ status: "ok" });
  });

  it("sends a stored audio and a byte range of it as stored", async () => {
    const wav = await fixture("hello.wav");
    await uploadAudio(h, adminToken, { name: "delivered.wav", content: wav });
    const audio = await h.deps.db.selectFrom("audios").select("fileKey").executeTakeFirstOrThrow();
    const fetched = await h.call("POST", "/api/fetch-files", adminToken, { fileUrl: audio.fileKey, folder: "audios" });
    const url = fetched.json<{ url: string }>().url;

    const whole = await get(url, { "accept-encoding": "br, gzip" });
    expect(whole.statusCode).toBe(200);
    expect(whole.headers["content-type"]).toBe("audio/wav");
    expect(whole.headers["content-encoding"]).toBeUndefined();
    expect(whole.rawPayload.equals(wav)).toBe(true);

    const part = await get(url, { "accept-encoding": "br, gzip", range: "bytes=100-4195" });
    expect(part.statusCode).toBe(206);
    expect(part.headers["content-encoding"]).toBeUndefined();
    expect(part.headers["content-range"]).toBe(`bytes 100-4195/${wav.length}`);
    expect(Number(part.headers["content-length"])).toBe(4096);
    expect(part.rawPayload.equals(wav.subarray(100, 4196))).toBe(true);
  });

  it("compresses a streamed tRPC batch (trpc-accept: application/jsonl) of the app", async () => {
    const input = encodeURIComponent(JSON.stringify({ 0: undefined }));
    const res = await fetchRaw(`${baseUrl}/trpc/accounts.list?batch=1&input=${input}`, {
      authorization: `Bearer ${adminToken}`,
      "trpc-accept": "application/jsonl",
      "accept-encoding": "br",
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-encoding"]).toBe("br");
    const lines = brotliDecompressSync(res.body).toString().trim().split("\n");
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.map((line) => JSON.parse(line) as unknown).length).toBe(lines.length);
    expect(lines.join("\n")).toContain('"username"');
  });

  it("upgrades a WebSocket of a client that accepts brotli, uncompressed", async () => {
    const ws = new WebSocket(`${baseUrl.replace(/^http/, "ws")}/trpc?connectionParams=1`, {
      headers: { "accept-encoding": "br, gzip" },
    });
    const upgraded = once(ws, "upgrade") as Promise<[http.IncomingMessage]>;
    const opened = once(ws, "open");
    const [upgrade] = await upgraded;
    expect(upgrade.statusCode).toBe(101);
    expect(upgrade.headers["content-encoding"]).toBeUndefined();
    await opened;
    ws.send(JSON.stringify({ method: "connectionParams", data: { token: adminToken } }));
    ws.send("PING");
    const [pong] = (await once(ws, "message")) as [Buffer];
    expect(String(pong)).toBe("PONG");
    ws.close();
  });
});

describe("a streamed tRPC batch compressed on the fly", () => {
  it.each(["br", "gzip"])(
    "arrives line by line in %s: the first call's answer before the second call ends",
    async (encoding) => {
      let openGate = () => {};
      const gate = new Promise<void>((resolve) => (openGate = resolve));
      const t = initTRPC.create();
      const router = t.router({
        fast: t.procedure.query(() => "fast answer"),
        // Ends only once the client has read the fast answer: a buffered answer would never end.
        slow: t.procedure.query(async () => {
          await gate;
          return "slow answer";
        }),
      });
      const app = Fastify();
      await registerCompression(app);
      registerTrpcHttp(app, { router, createContext: async () => ({}) });
      const origin = await listen(app);
      try {
        // A buffered answer would hold back even its headers: the slow call ends after 5 s whatever happens.
        const timer = setTimeout(() => openGate(), 5_000);
        const req = http.get(`${origin}/trpc/fast,slow?batch=1`, {
          headers: { "trpc-accept": "application/jsonl", "accept-encoding": encoding },
        });
        const [res] = (await once(req, "response")) as [http.IncomingMessage];
        expect(res.headers["content-encoding"]).toBe(encoding);
        const decoded = res.pipe(encoding === "br" ? createBrotliDecompress() : createGunzip());
        let text = "";
        let fastBeforeSlow = false;
        decoded.on("data", (chunk: Buffer) => {
          text += chunk.toString();
          if (text.includes("fast answer") && !text.includes("slow answer")) {
            fastBeforeSlow = true;
            openGate();
          }
        });
        await once(decoded, "end");
        clearTimeout(timer);
        expect(fastBeforeSlow, text).toBe(true);
        expect(text).toContain("slow answer");
      } finally {
        await app.close();
      }
    },
  );
});

/** A GET over a real socket, the body as the bytes that crossed the wire (never decompressed). */
async function fetchRaw(url: string, headers: Record<string, string>) {
  const req = http.get(url, { headers });
  const [res] = (await once(req, "response")) as [http.IncomingMessage];
  const chunks: Buffer[] = [];
  for await (const chunk of res) chunks.push(chunk as Buffer);
  return { statusCode: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) };
}
