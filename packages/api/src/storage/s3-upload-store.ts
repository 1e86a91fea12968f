import { S3Store } from "@tus/s3-store";
import { RESUMABLE_UPLOAD_TTL_MS } from "./upload-store";

type S3StoreOptions = ConstructorParameters<typeof S3Store>[0];

/**
 * The resumable uploads' store in the S3 bucket (decision 020): `@tus/s3-store`
 * with 8 MiB parts, whose `remove` removes everything an upload keeps. S3Store.remove leaves two
 * things behind: an unfinished upload's incomplete part (`{id}.part`, bytes short of a part), and
 * the whole of a finished one: its multipart upload is complete, so S3 answers NoSuchUpload to the
 * abort S3Store starts with, and S3Store gives up with FILE_NOT_FOUND before deleting anything.
 * Here `{id}`, `{id}.info` and `{id}.part` are deleted in both cases. Deleting a key that is not
 * there succeeds, so removing an unknown id changes nothing.
 */
class S3UploadStore extends S3Store {
  override async remove(id: string): Promise<void> {
    try {
      await super.remove(id);
    } catch (error) {
      if ((error as { status_code?: unknown }).status_code !== 404) throw error;
    }
    await this.client.deleteObjects({
      Bucket: this.bucket,
      Delete: { Objects: [{ Key: id }, { Key: `${id}.info` }, { Key: `${id}.part` }], Quiet: true },
    });
  }
}

/** A tus store keeping uploads in `s3ClientConfig.bucket` until finished; see S3UploadStore. */
export function createS3UploadStore(s3ClientConfig: S3StoreOptions["s3ClientConfig"]): S3Store {
  return new S3UploadStore({
    partSize: 8 * 1024 * 1024,
    expirationPeriodInMilliseconds: RESUMABLE_UPLOAD_TTL_MS,
    s3ClientConfig,
  });
}
