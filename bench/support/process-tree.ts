import { readFileSync, readdirSync } from "node:fs";

/** Every process as /proc tells it: pid, parent pid and command name. */
function processes(): Array<{ pid: number; ppid: number; name: string }> {
  const found: Array<{ pid: number; ppid: number; name: string }> = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      found.push({ pid: Number(entry), ppid, name });
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}

/** VmRSS of `pid` in MB, 0 when it has ended. */
function rssMb(pid: number): number {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/**
 * The resident memory (VmRSS, MB) of every Chromium process descended from `root` (a browser that
 * playwright launched is a child of this process; its renderers, GPU and utility processes are its
 * descendants), added up as the "all Chromium processes" figure: pages shared between them
 * count once per process.
 */
export function chromiumMemoryMb(root: number): number {
  const all = processes();
  const children = new Map<number, number[]>();
  for (const p of all) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p.pid]);
  const names = new Map(all.map((p) => [p.pid, p.name]));
  let total = 0;
  const stack = [...(children.get(root) ?? [])];
  while (stack.length > 0) {
    const pid = stack.pop()!;
    if (/chrom/i.test(names.get(pid) ?? "")) total += rssMb(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return total;
}
