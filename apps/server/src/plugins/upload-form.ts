import { createWriteStream, promises as fs } from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import type { FastifyRequest } from "fastify";
import {
  AppError,
  refuseNulText,
  tooLargeMessage,
  type FileStorage,
  type ReceivedFile,
  type UploadForm,
} from "@tafsiri/api";

/** A multipart upload form as read from the request, with a way to drop its temp file. */
export interface ReadUploadForm extends UploadForm {
  /** Removes the temp file unless a service has already moved it away; safe to call twice. */
  discard(): Promise<void>;
}

function tooLarge(maxBytes: number): AppError {
  return new AppError("TOO_LARGE", tooLargeMessage(maxBytes));
}

/** Text fields an upload form may carry (the largest form has five); one file besides. */
const MAX_FIELDS = 20;
/** 413 for a form past MAX_FIELDS. */
const TOO_MANY_FIELDS = `The upload form has too many fields. The limit is ${MAX_FIELDS} fields and one file.`;
/** 413 for a form with a second file. */
const ONE_FILE_AT_A_TIME = "Please upload one file at a time.";

/** True for the errors @fastify/multipart raises on a size or count limit. */
function isLimitError(error: unknown): error is { code: string } {
  const code = (error as { code?: unknown } | null)?.code;
  return (
    typeof code === "string" &&
    ["FST_REQ_FILE_TOO_LARGE", "FST_PARTS_LIMIT", "FST_FILES_LIMIT", "FST_FIELDS_LIMIT"].includes(code)
  );
}

/**
 * Reads a multipart upload form (needs @fastify/multipart in the route's scope).
 * The file part is streamed to `storage.tempPath()` as it arrives, never buffered whole.
 * Clients should send the text fields before the file (the web client does); fields sent after
 * the file are accepted too, since every part is read before the caller acts on the form.
 * One file per form. Errors (AppError): TOO_LARGE (413) past `maxBytes` ('File is too large. The
 * limit is N MB.'), for a second file ('Please upload one file at a time.') and for more than 20
 * fields ('The upload form has too many fields. The limit is 20 fields and one file.');
 * BAD_REQUEST for a body that is not multipart, and NUL_IN_TEXT for a field name, field value or
 * file name holding U+0000. On any error the temp file is removed.
 */
export async function readUploadForm(
  req: FastifyRequest,
  storage: FileStorage,
  maxBytes: number,
): Promise<ReadUploadForm> {
  if (!req.isMultipart()) {
    throw new AppError("BAD_REQUEST", "Send the upload as multipart/form-data.");
  }
  const fields: Record<string, string> = {};
  let file: ReceivedFile | null = null;
  const discard = async () => {
    if (file) await fs.rm(file.tempFile, { force: true });
  };
  try {
    const parts = req.parts({
      limits: { fileSize: maxBytes, files: 1, fields: MAX_FIELDS, parts: MAX_FIELDS + 1, fieldSize: 1024 * 1024 },
    });
    for await (const part of parts) {
      if (part.type === "field") {
        fields[part.fieldname] = typeof part.value === "string" ? part.value : String(part.value);
        continue;
      }
      const tempFile = storage.tempPath();
      await fs.mkdir(path.dirname(tempFile), { recursive: true });
      file = { tempFile, originalName: part.filename ?? "", sizeBytes: 0 };
      await pipeline(part.file, createWriteStream(tempFile));
      if (part.file.truncated) throw tooLarge(maxBytes);
      file.sizeBytes = (await fs.stat(tempFile)).size;
    }
    // Every part has been read (so the request is consumed); nothing has been acted on yet.
    refuseNulText([fields, file?.originalName]);
  } catch (error) {
    await discard();
    if (error instanceof AppError) throw error;
    if (isLimitError(error)) {
      // Every limit is an over-limit request (413), like a file past the size limit.
      if (error.code === "FST_REQ_FILE_TOO_LARGE") throw tooLarge(maxBytes);
      if (error.code === "FST_FILES_LIMIT") throw new AppError("TOO_LARGE", ONE_FILE_AT_A_TIME);
      throw new AppError("TOO_LARGE", TOO_MANY_FIELDS);
    }
    throw new AppError("BAD_REQUEST", "The upload could not be read. Please try again.", { cause: error });
  }
  // An empty file part (a form posted without choosing a file) counts as no file.
  if (file && file.sizeBytes === 0 && file.originalName === "") {
    await discard();
    file = null;
  }
  return { fields, file, discard };
}
