import { fork } from "node:child_process";
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { S3StorageConfig } from "../storage/s3-storage";

const CHILD = path.join(path.dirname(fileURLToPath(import.meta.url)), "s3-server-child.mjs");

/** The bucket every test S3 server serves. */
const TEST_BUCKET = "tafsiri-test";

/** A running S3-compatible server for tests and how to reach its bucket. */
export interface TestS3Server {
  /** e.g. http://127.0.0.1:41234 */
  endpoint: string;
  /** The folder the server keeps its buckets, objects and unfinished uploads in. */
  directory: string;
  /** Everything `createS3Storage` needs but the temp folder. */
  config: Omit<S3StorageConfig, "tempDir">;
  /** Stops the server and removes its folder. */
  close(): Promise<void>;
}

/** The server settings (STORAGE=s3 and S3_*) that point a server process at `s3`'s bucket. */
export function s3Settings(s3: TestS3Server): Record<string, string> {
  return {
    STORAGE: "s3",
    S3_ENDPOINT: s3.endpoint,
    S3_BUCKET: s3.config.bucket,
    S3_REGION: s3.config.region,
    S3_ACCESS_KEY_ID: s3.config.accessKeyId,
    S3_SECRET_ACCESS_KEY: s3.config.secretAccessKey,
  };
}

/**
 * Starts a real S3-compatible server for a test (s3rver 3.7, in a child node
 * process so its memory and CPU are not the test's; with `--openssl-legacy-provider`, as s3rver's
 * list continuation tokens use DES, which Node 20's OpenSSL 3 has only there) over a fresh temp folder, with the bucket
 * `tafsiri-test` and s3rver's fixed credentials (S3RVER / S3RVER; it checks SigV4 signatures).
 * Resolves once it listens (throws with its output if it exits first or takes over 30 s). The
 * child exits when this process goes away, so `npm test` needs nothing else running.
 */
export async function startTestS3Server(): Promise<TestS3Server> {
  // The SDK warns once per process that its releases after January 2027 need Node 22; the pin
  // (decision 014) is known, so test output stays quiet. A server with STORAGE=s3 still warns.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";
  const directory = await fs.mkdtemp(path.join(os.tmpdir(), "tafsiri-s3-"));
  const child = fork(CHILD, [directory, TEST_BUCKET], {
    // s3rver signs ListObjectsV2 continuation tokens with DES, which OpenSSL 3 keeps in its legacy provider.
    execArgv: ["--openssl-legacy-provider"],
    stdio: ["ignore", "ignore", "pipe", "ipc"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const port = await new Promise<number>((resolve, reject) => {
    const settle = (error: Error | null, value?: number) => {
      clearTimeout(timer);
      child.off("message", onMessage);
      child.off("exit", onExit);
      if (value !== undefined) return resolve(value);
      child.kill("SIGKILL");
      reject(new Error(`${error?.message ?? "the test S3 server failed"}\n${stderr}`));
    };
    const onMessage = (message: { port?: unknown }) =>
      typeof message.port === "number"
        ? settle(null, message.port)
        : settle(new Error("the test S3 server sent no port"));
    const onExit = (code: number | null) => settle(new Error(`the test S3 server exited with ${code}`));
    const timer = setTimeout(() => settle(new Error("the test S3 server did not start within 30 s")), 30_000);
    child.on("message", onMessage);
    child.on("exit", onExit);
  }).catch(async (error: unknown) => {
    await fs.rm(directory, { recursive: true, force: true });
    throw error;
  });
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    directory,
    config: {
      bucket: TEST_BUCKET,
      region: "us-east-1",
      endpoint,
      accessKeyId: "S3RVER",
      secretAccessKey: "S3RVER",
      forcePathStyle: true,
    },
    async close() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await exited;
      }
      await fs.rm(directory, { recursive: true, force: true });
    },
  };
}
