/**
 * Caddy in front of benchmark servers, configured as in production: the project's
 * deploy/Caddyfile (round robin over the instances, active /healthz checks, WebSocket upgrades
 * passed through), with its upstreams and port from the TAFSIRI_UPSTREAMS and TAFSIRI_HTTP_PORT
 * placeholders (decision 029). A Caddyfile that names them literally (`:80`, `app1:3000 app2:3000`)
 * is rewritten the same way. Caddy's admin endpoint is turned off so two runs never clash on its
 * port. Needs /usr/bin/caddy (Debian's caddy package) or CADDY_BIN.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort, ROOT } from "./child-process";

/** A running Caddy: its address, and stop(), which ends it and removes its files. */
export interface CaddyProxy {
  /** http://127.0.0.1:<port> */
  baseUrl: string;
  pid: number;
  stop(): Promise<void>;
}

const CADDYFILE = path.join(ROOT, "deploy/Caddyfile");

/** deploy/Caddyfile with the admin endpoint off, and literal upstreams and port turned into the placeholders. */
function benchCaddyfile(): string {
  const text = readFileSync(CADDYFILE, "utf8")
    .replace(/^:80 \{/m, ":{$TAFSIRI_HTTP_PORT:80} {")
    .replace("reverse_proxy app1:3000 app2:3000 {", "reverse_proxy {$TAFSIRI_UPSTREAMS:app1:3000 app2:3000} {");
  if (!text.includes("{$TAFSIRI_UPSTREAMS") || !text.includes("{$TAFSIRI_HTTP_PORT"))
    throw new Error(
      `${CADDYFILE} has neither the placeholders nor the literal upstreams and port this benchmark fills in.`,
    );
  // The global options block is the file's first "{" line.
  return text.replace(/^\{\n/m, "{\n\tadmin off\n");
}

/** Resolves when `child` has exited; SIGKILLs it after `ms` when it has not. */
function exitWithin(child: ChildProcess, ms: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), ms);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/**
 * Starts Caddy with deploy/Caddyfile on a free port of 127.0.0.1 in front of `upstreams`
 * (base URLs such as http://127.0.0.1:3001) and resolves once GET /healthz through it answers
 * 200. Throws with Caddy's output when it exits first or is not ready within 30 s (Caddy is
 * stopped first). stop() sends SIGTERM (SIGKILL after 5 s: Caddy otherwise waits for open
 * WebSockets) and removes the config and data directory; it may be called more than once.
 */
export async function startCaddy(upstreams: string[]): Promise<CaddyProxy> {
  const bin = process.env.CADDY_BIN ?? "/usr/bin/caddy";
  if (!existsSync(bin)) throw new Error(`Caddy is not installed at ${bin} (apt-get install caddy, or set CADDY_BIN).`);
  const dir = mkdtempSync(path.join(os.tmpdir(), "tafsiri-bench-caddy-"));
  const config = path.join(dir, "Caddyfile");
  writeFileSync(config, benchCaddyfile());
  const port = await freePort();
  const child = spawn(bin, ["run", "--config", config, "--adapter", "caddyfile"], {
    env: {
      ...process.env,
      HOME: dir,
      XDG_CONFIG_HOME: dir,
      XDG_DATA_HOME: dir,
      TAFSIRI_HTTP_PORT: String(port),
      TAFSIRI_UPSTREAMS: upstreams.map((url) => new URL(url).host).join(" "),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-10_000));
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  let stopped: Promise<void> | undefined;
  const proxy: CaddyProxy = {
    baseUrl: `http://127.0.0.1:${port}`,
    pid: child.pid ?? 0,
    stop: () =>
      (stopped ??= (async () => {
        if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
        await exitWithin(child, 5_000);
        rmSync(dir, { recursive: true, force: true });
      })()),
  };
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      await proxy.stop();
      throw new Error(`caddy exited with ${child.exitCode}:\n${output}`);
    }
    const ready = await fetch(`${proxy.baseUrl}/healthz`).then(
      (res) => res.status === 200,
      () => false,
    );
    if (ready) return proxy;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await proxy.stop();
  throw new Error(`caddy did not answer /healthz within 30 s:\n${output}`);
}
