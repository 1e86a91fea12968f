import { constants } from "node:zlib";
import type { FastifyInstance } from "fastify";
import compress from "@fastify/compress";

/** Answers smaller than this many bytes go out as they are (JSON above 1 KB is compressed). */
export const COMPRESS_THRESHOLD = 1024;

/**
 * What is compressed on the fly: text (not `text/event-stream`), JSON and XML. Unlike the plugin's default,
 * `application/octet-stream` is left out: it names bytes of unknown kind, most often already compressed.
 * A type this does not match falls back to mime-db's `compressible` flag (JavaScript, SVG yes; audio, zip no).
 */
const COMPRESSIBLE = /^text\/(?!event-stream)|[+/]json(?:;|$)|[+/]xml(?:;|$)/;

/**
 * Registers @fastify/compress for every route registered after it: answers of a
 * compressible type from COMPRESS_THRESHOLD bytes up are sent in brotli (quality 4) or gzip, as the
 * request's `accept-encoding` prefers, with `vary: accept-encoding`. The plugin itself leaves alone
 * an answer that already has a `content-encoding` (the web app's precompressed files, routes/web.ts),
 * a 206 or any answer with `content-range`, and a reply a route hijacks (WebSocket upgrades, the
 * tus routes at /api/uploads), since those never reach `onSend`. Streams are flushed at every write,
 * so tRPC's `trpc-accept: application/jsonl` answers still arrive line by line. Request bodies are
 * never decompressed (`globalDecompression: false`): the tus routes and tRPC read raw bodies.
 * A route opts out with `compress: false` (the stored files of routes/files.ts).
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, {
    globalCompression: true,
    globalDecompression: false,
    encodings: ["br", "gzip"],
    threshold: COMPRESS_THRESHOLD,
    customTypes: COMPRESSIBLE,
    brotliOptions: {
      params: { [constants.BROTLI_PARAM_QUALITY]: 4 },
      flush: constants.BROTLI_OPERATION_FLUSH,
    },
    zlibOptions: { flush: constants.Z_SYNC_FLUSH },
  });
}
