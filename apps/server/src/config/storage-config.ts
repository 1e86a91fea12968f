import path from "node:path";
import type { StorageConfig } from "@tafsiri/api";
import type { Settings } from "../settings";

type StorageSettings = Pick<
  Settings,
  | "STORAGE"
  | "S3_ENDPOINT"
  | "S3_BUCKET"
  | "S3_REGION"
  | "S3_ACCESS_KEY_ID"
  | "S3_SECRET_ACCESS_KEY"
  | "S3_FORCE_PATH_STYLE"
>;

/**
 * The file storage the settings ask for (openStorage's input; decision 014). STORAGE=local:
 * `dataDir/files`. STORAGE=s3: the S3_* bucket, with temp files (uploads being received) in
 * `dataDir/files/.tmp` on local disk, where the local backend keeps them too. `dataDir` is an
 * absolute path. Throws when STORAGE=s3 lacks a required S3_* setting (loadSettings refuses
 * such settings already, so only a hand-built Settings object gets here).
 */
export function storageConfig(settings: StorageSettings, dataDir: string): StorageConfig {
  const root = path.join(dataDir, "files");
  if (settings.STORAGE === "local") return { backend: "local", root };
  const required = (name: keyof StorageSettings): string => {
    const value = settings[name];
    if (typeof value !== "string") throw new Error(`${name} is required when STORAGE=s3`);
    return value;
  };
  return {
    backend: "s3",
    bucket: required("S3_BUCKET"),
    region: required("S3_REGION"),
    accessKeyId: required("S3_ACCESS_KEY_ID"),
    secretAccessKey: required("S3_SECRET_ACCESS_KEY"),
    endpoint: settings.S3_ENDPOINT,
    forcePathStyle: settings.S3_FORCE_PATH_STYLE,
    tempDir: path.join(root, ".tmp"),
  };
}
