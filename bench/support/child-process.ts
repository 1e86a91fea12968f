import { spawn, type ChildProcess } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root (bench/support/../..). */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const TSX = path.join(ROOT, "node_modules/.bin/tsx");
/** Keeps the last this-many characters of a child's output, for error messages. */
const OUTPUT_TAIL = 20_000;
/** Clock ticks per second of /proc/<pid>/stat times (USER_HZ, 100 on Linux). */
const CLOCK_TICKS = 100;

/** A benchmark server running as a child process (`tsx <script>`), listening on 127.0.0.1. */
export interface ChildServer {
  child: ChildProcess;
  /** http://127.0.0.1:<port> */
  baseUrl: string;
  /** The process running the script (tsx runs it in a child of its own), whose memory we read. */
  pid: number;
  /** The tail of what the child printed so far. */
  output(): string;
}

/** A TCP port of 127.0.0.1 nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no free port")),
      );
    });
  });
}

/** Process ids whose parent is `pid` (from /proc/<id>/stat). */
function childrenOf(pid: number): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // Fields after the command name (which may hold spaces) start after the last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === pid) found.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}

/**
 * The process that runs `script`: tsx's CLI starts a node child with its loader, so this walks
 * the descendants of `pid` and returns the deepest one whose command line names the script
 * (`pid` itself when there is none).
 */
function scriptProcess(pid: number, script: string): number {
  let current = pid;
  for (;;) {
    const next = childrenOf(current).find((id) => {
      try {
        return readFileSync(`/proc/${id}/cmdline`, "utf8").includes(script);
      } catch {
        return false;
      }
    });
    if (next === undefined) return current;
    current = next;
  }
}

/** A field of /proc/<pid>/status in MB (VmHWM: peak resident set size; VmRSS: current). */
export function memoryMb(pid: number, field: "VmHWM" | "VmRSS"): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status);
  if (!match) throw new Error(`no ${field} in /proc/${pid}/status`);
  return Number(match[1]) / 1024;
}

/** CPU time (user + system) a process has used so far, in ms (/proc/<pid>/stat, 10 ms ticks). */
export function cpuTimeMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // utime and stime are fields 14 and 15 of stat, i.e. 11 and 12 after the command name.
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}

/**
 * Runs `tsx <script>` (a path relative to the repository root) with this process's environment
 * plus PORT/HOST and `env` (a value of undefined removes the variable), and BENCH_SERVER_NODE_ARGS
 * as node options when set (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" to profile), then polls
 * GET /healthz until it answers 200. Throws with the child's output when it exits first or is
 * not healthy within 90 s (the child is stopped first).
 */
export async function startChild(script: string, env: Record<string, string | undefined>): Promise<ChildServer> {
  const port = await freePort();
  // Benchmarks sign admins in with a password; decision 038's required second factor is tested, not measured.
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: "127.0.0.1",
    REQUIRE_ADMIN_SECOND_FACTOR: "false",
  };
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) delete childEnv[name];
    else childEnv[name] = value;
  }
  const nodeArgs = process.env.BENCH_SERVER_NODE_ARGS?.split(" ").filter(Boolean) ?? [];
  const child = spawn(TSX, [...nodeArgs, script], { cwd: ROOT, env: childEnv, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-OUTPUT_TAIL);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const baseUrl = `http://127.0.0.1:${port}`;
  const server: ChildServer = { child, baseUrl, pid: child.pid ?? 0, output: () => output };

  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${script} exited with ${child.exitCode}:\n${output}`);
    const healthy = await fetch(`${baseUrl}/healthz`).then(
      (res) => res.status === 200,
      () => false,
    );
    if (healthy) {
      server.pid = scriptProcess(child.pid ?? 0, script);
      return server;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await stopChild(server);
  throw new Error(`${script} did not become healthy within 90 s:\n${output}`);
}

/**
 * Ends a started child and waits for it: SIGTERM to the script's own process (so it shuts down
 * gracefully even when busy; tsx's CLI would SIGKILL a child that does not acknowledge a relayed
 * signal within 30 ms), then SIGKILL to both after 10 s.
 */
export async function stopChild(server: ChildServer): Promise<void> {
  const { child } = server;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  try {
    process.kill(server.pid, "SIGTERM");
  } catch {
    child.kill("SIGTERM");
  }
  const timer = setTimeout(() => {
    child.kill("SIGKILL");
    if (server.pid !== child.pid) {
      try {
        process.kill(server.pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    }
  }, 10_000);
  await exited;
  clearTimeout(timer);
}
