import { existsSync } from "node:fs";
import path from "node:path";
import { openStorage, type FileStorage } from "@tafsiri/api";
import { loadSettings, type Settings } from "../settings";
import { storageConfig } from "../config/storage-config";

/** The settings, data directory and storage a CLI works on (the server's own settings, decision 027). */
export interface CliTarget {
  settings: Settings;
  dataDir: string;
  /** DATA_DIR/db, the embedded database's data directory. */
  pgliteDir: string;
  storage: FileStorage;
  /** The storage as messages name it. */
  storageName: string;
}

/** Reads the settings from the environment and opens the storage they name. Throws 'Invalid settings: …'. */
export async function openCliTarget(): Promise<CliTarget> {
  const settings = loadSettings();
  const dataDir = path.resolve(settings.DATA_DIR);
  const config = storageConfig(settings, dataDir);
  const storage = await openStorage(config);
  const storageName = config.backend === "local" ? `the folder ${config.root}` : `the bucket "${config.bucket}"`;
  return { settings, dataDir, pgliteDir: path.join(dataDir, "db"), storage, storageName };
}

/**
 * Whether a process has the embedded database open: PGlite keeps `postmaster.pid` in its data
 * directory while an instance has it open and removes it on close (a killed server leaves it).
 */
export function embeddedDatabaseInUse(pgliteDir: string): boolean {
  return existsSync(path.join(pgliteDir, "postmaster.pid"));
}

/** Prints `message` to stderr and ends the process with `code`. */
export function fail(message: string, code = 1): never {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

/** `n` bytes for people: 1.2 MB. */
export function formatBytes(n: number): string {
  const units = ["bytes", "kB", "MB", "GB", "TB"];
  let value = n;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return unit === 0 ? `${n} bytes` : `${value.toFixed(1)} ${units[unit]}`;
}
