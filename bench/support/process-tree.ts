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

/** The proportional set size of `pid` in MB (/proc/<pid>/smaps_rollup), 0 when it has ended. */
function pssMb(pid: number): number {
  try {
    const match = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"));
    return match ? Number(match[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/**
 * The memory (MB) of every Chromium process descended from `root` (a browser that playwright
 * launched is a child of this process; its renderers, GPU, audio and utility processes are its
 * descendants), added up as "all Chromium processes": each process's proportional set size, so a
 * page shared by several (Chromium's own libraries, mapped again by each process it starts) counts
 * once in all, not once per process as adding up their RSS would.
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
    if (/chrom/i.test(names.get(pid) ?? "")) total += pssMb(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return total;
}
