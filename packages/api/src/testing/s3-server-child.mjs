// A child process serving an S3-compatible bucket for tests: s3rver over the
// folder given as the first argument, on a free port of 127.0.0.1, with the bucket named by the
// second. It sends `{ port }` to its parent once listening and exits when the parent goes away
// (disconnect) or asks it to (SIGTERM), so it never outlives the test run. See s3-server.ts.
import { promises as fs } from "node:fs";
import path from "node:path";
import S3rver from "s3rver";

const [directory, bucket] = process.argv.slice(2);
const server = new S3rver({
  address: "127.0.0.1",
  port: 0,
  directory,
  silent: true,
  configureBuckets: [{ name: bucket, configs: [] }],
});
// s3rver 3.7 stores multipart parts but answers MethodNotAllowed to ListParts and AbortMultipartUpload,
// which @tus/s3-store (the resumable uploads' S3 store, decision 020) relies on; they are answered here
// from the parts s3rver keeps, ahead of its router (and after its XML encoder, which turns `ctx.body`
// objects into S3's XML).
server.middleware.splice(server.middleware.length - 2, 0, multipartPartsAndAbort);
const { port } = await server.run();
process.send?.({ port });
const stop = () => process.exit(0);
process.on("disconnect", stop);
process.on("SIGTERM", stop);

/** ListParts (GET ?uploadId) and AbortMultipartUpload (DELETE ?uploadId) over s3rver's own upload folder. */
async function multipartPartsAndAbort(ctx, next) {
  const match = /^\/([^/]+)\/(.+)$/.exec(ctx.path);
  const uploadId = ctx.query.uploadId;
  if (!match || typeof uploadId !== "string" || ctx.query.partNumber !== undefined) return next();
  if (ctx.method !== "GET" && ctx.method !== "DELETE") return next();
  const [, bucketName, key] = match;
  const folder = path.join(server.store.getResourcePath(bucketName, undefined, "uploads"), uploadId);
  const names = await fs.readdir(folder).catch(() => null);
  if (!names) {
    ctx.status = 404;
    ctx.body = { Error: { Code: "NoSuchUpload", Message: "The specified upload does not exist.", UploadId: uploadId } };
    return;
  }
  if (ctx.method === "DELETE") {
    await fs.rm(folder, { recursive: true, force: true });
    ctx.status = 204;
    return;
  }
  const marker = Number(ctx.query["part-number-marker"] ?? 0);
  const numbers = names
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((n) => n > marker)
    .sort((a, b) => a - b);
  const parts = await Promise.all(
    numbers.map(async (n) => {
      const [stat, md5] = await Promise.all([
        fs.stat(path.join(folder, String(n))),
        fs.readFile(path.join(folder, `${n}.md5`), "utf8"),
      ]);
      return { PartNumber: n, LastModified: stat.mtime.toISOString(), ETag: `"${md5}"`, Size: stat.size };
    }),
  );
  ctx.body = {
    ListPartsResult: {
      Bucket: bucketName,
      Key: decodeURIComponent(key),
      UploadId: uploadId,
      PartNumberMarker: marker,
      NextPartNumberMarker: numbers.at(-1) ?? marker,
      MaxParts: 10000,
      IsTruncated: false,
      Part: parts,
    },
  };
}
