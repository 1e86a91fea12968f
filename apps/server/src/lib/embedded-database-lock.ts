import { promises as fs } from "node:fs";
import path from "node:path";

/** The file naming the process that has the embedded database of a DATA_DIR open. */
const SERVER_PID_FILE = "server.pid";

/** Whether a process with id `pid` is running (one we may not signal counts as running). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Claims the embedded database (PGlite under `dataDir`/db) for this process, ARCHITECTURE "Real
 * components": PGlite is one process's database, and a second server on the same DATA_DIR would
 * write the same files and corrupt them; PGlite's own postmaster.pid names no real process, so it
 * cannot tell. Writes this process's id to `dataDir`/server.pid (created exclusively); a file left
 * by a process that is no longer running (killed, or this process itself, e.g. PID 1 again in a
 * restarted container) is replaced. Answers the release, which removes the file if it is still
 * this process's. Throws an Error saying which process holds it and what to do when another
 * running process does.
 */
export async function claimEmbeddedDatabase(dataDir: string): Promise<() => Promise<void>> {
  const file = path.join(dataDir, SERVER_PID_FILE);
  await fs.mkdir(dataDir, { recursive: true });
  const release = async () => {
    const holder = await fs.readFile(file, "utf8").catch(() => "");
    if (Number(holder.trim()) === process.pid) await fs.rm(file, { force: true });
  };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await fs.writeFile(file, `${process.pid}\n`, { flag: "wx" });
      return release;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const holder = Number((await fs.readFile(file, "utf8").catch(() => "")).trim());
    if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && isRunning(holder)) {
      throw new Error(
        `Another Tafsiri server (process ${holder}) has the embedded database in ${dataDir} open. ` +
          "Stop it first, or give this one another DATA_DIR.",
      );
    }
    await fs.rm(file, { force: true });
  }
  throw new Error(`Could not claim the embedded database in ${dataDir}: ${file} keeps coming back.`);
}
