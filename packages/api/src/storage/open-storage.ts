import { createLocalStorage, type FileStorage } from "./file-storage";
import type { S3StorageConfig } from "./s3-storage";

/** Which storage to open: local disk under `root`, or an S3-compatible bucket. */
export type StorageConfig = { backend: "local"; root: string } | ({ backend: "s3" } & S3StorageConfig);

/**
 * Opens the file storage the `STORAGE` setting names (decision 014). `local`: the folder
 * `root` (`DATA_DIR/files`, temp files in `root/.tmp`). `s3`: the bucket (createS3Storage), after
 * checking that it answers, so a wrong endpoint, bucket or key stops the start with 'S3 bucket
 * "{bucket}" … is not reachable: {reason}' instead of failing the first upload. The AWS SDK is
 * loaded only here, so a server on local disk never loads it (about 25 MB and 0.5 s).
 * Close the storage (`close()`) on shutdown.
 */
export async function openStorage(config: StorageConfig): Promise<FileStorage> {
  if (config.backend === "local") return createLocalStorage(config.root);
  const { createS3Storage } = await import("./s3-storage");
  const storage = createS3Storage(config);
  try {
    await storage.checkBucket();
  } catch (error) {
    await storage.close();
    throw error;
  }
  return storage;
}
