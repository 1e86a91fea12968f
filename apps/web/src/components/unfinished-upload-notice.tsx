import { useEffect, useState } from "react";
import {
  discardUnfinishedUpload,
  findUnfinishedUploads,
  type UnfinishedUpload,
  type UploadKind,
} from "#web/lib/resumable-upload";
import { formatBytes } from "./upload-progress";

/**
 * Resumable uploads (decision 020): after a reload (or a closed tab) a browser cannot reopen a file by itself, so an
 * upload form says which of the user's uploads of `kind` (with the fields in `match`) did not finish
 * here, newest first: "'{filename}' ({size}) did not finish uploading. Choose the same file again to
 * go on from where it stopped." 'Discard' gives it up (the file stays on the device; the server
 * drops the bytes it had). Hidden while `uploading`, and read again after.
 */
export function UnfinishedUploadNotice({
  kind,
  match = {},
  uploading,
}: {
  kind: UploadKind;
  match?: Record<string, string>;
  uploading: boolean;
}) {
  const [unfinished, setUnfinished] = useState<UnfinishedUpload | null>(null);
  const [discarding, setDiscarding] = useState(false);
  const matchKey = JSON.stringify(match);

  useEffect(() => {
    if (uploading) return;
    let current = true;
    void findUnfinishedUploads(kind, JSON.parse(matchKey) as Record<string, string>).then((found) => {
      if (current) setUnfinished(found[0] ?? null);
    });
    return () => {
      current = false;
    };
  }, [kind, matchKey, uploading]);

  if (uploading || !unfinished) return null;

  const discard = async () => {
    setDiscarding(true);
    await discardUnfinishedUpload(unfinished);
    const found = await findUnfinishedUploads(kind, JSON.parse(matchKey) as Record<string, string>);
    setUnfinished(found[0] ?? null);
    setDiscarding(false);
  };

  return (
    <div className="banner row unfinished-upload" role="status" data-testid="unfinished-upload">
      <p>
        ‘{unfinished.filename}’ ({formatBytes(unfinished.bytesTotal)}) did not finish uploading. Choose the same file
        again to go on from where it stopped.
      </p>
      <button type="button" className="btn btn-ghost btn-sm" disabled={discarding} onClick={() => void discard()}>
        Discard
      </button>
    </div>
  );
}
