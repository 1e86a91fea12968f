// A child process serving an S3-compatible bucket for tests (issue 11 Build 6): s3rver over the
// folder given as the first argument, on a free port of 127.0.0.1, with the bucket named by the
// second. It sends `{ port }` to its parent once listening and exits when the parent goes away
// (disconnect) or asks it to (SIGTERM), so it never outlives the test run. See s3-server.ts.
import S3rver from "s3rver";

const [directory, bucket] = process.argv.slice(2);
const server = new S3rver({
  address: "127.0.0.1",
  port: 0,
  directory,
  silent: true,
  configureBuckets: [{ name: bucket, configs: [] }],
});
const { port } = await server.run();
process.send?.({ port });
const stop = () => process.exit(0);
process.on("disconnect", stop);
process.on("SIGTERM", stop);
