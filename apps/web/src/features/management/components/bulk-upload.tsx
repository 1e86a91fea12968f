import { useState, type FormEvent } from "react";
import { toast } from "sonner";
import { DropZone } from "@tafsiri/ui/drop-zone";
import { CategorySelect } from "./category-select";
import { isFailed, uploadAudio } from "../lib/upload";
import { audioFilesFromZip, ZIP_ACCEPT } from "../../../lib/audio-files";
import { toastRejection } from "../lib/rejection-toast";
import { announce } from "../../../lib/announce";
import type { Category } from "../lib/categories";

const NOT_ZIP = "Please select a zip file to upload.";

/**
 * SPEC §2.16 Bulk upload: a category and a zip, unzipped in the browser; each audio entry is
 * uploaded in turn through the single-upload route while the progress shows 'Uploading n/total'.
 * Ends with one summary toast (SPEC §8) and resets the form once the archive was processed.
 * Screen readers hear 'Uploading n files' once at the start and the summary toast at the end, not
 * every step of the count (issue 14 Build 3); the count is a named progress bar they can read.
 */
export function BulkUpload({ onUploaded }: { onUploaded(): void }) {
  const [category, setCategory] = useState<Category | "">("");
  const [zip, setZip] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState<{ current: number; total: number } | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!category) return void toast.error("Please select a category.");
    if (!zip) return void toast.error(NOT_ZIP);
    setBusy(true);
    try {
      let files: File[];
      try {
        files = await audioFilesFromZip(zip);
      } catch {
        toast.error("Failed to process zip file.");
        return;
      }
      if (files.length === 0) {
        toast.error("No valid audio files found in the zip.");
        return;
      }
      announce(files.length === 1 ? "Uploading 1 file" : `Uploading ${files.length} files`);
      let succeeded = 0;
      for (const [index, file] of files.entries()) {
        setProgress({ current: index + 1, total: files.length });
        const result = await uploadAudio(category, file);
        if (!isFailed(result)) succeeded += 1;
      }
      const failed = files.length - succeeded;
      if (failed === 0) {
        toast.success("All files uploaded successfully!", { description: `${succeeded} files uploaded.` });
      } else {
        toast.warning("Upload completed with errors.", {
          description: `${succeeded} files uploaded successfully, ${failed} failed.`,
        });
      }
      setCategory("");
      setZip(null);
      if (succeeded > 0) onUploaded();
    } finally {
      setBusy(false);
      setProgress(null);
    }
  }

  return (
    <section className="card stack" aria-labelledby="bulk-upload-title">
      <h2 id="bulk-upload-title" className="section-title">
        Bulk upload
      </h2>
      <form className="stack" onSubmit={submit} noValidate>
        <CategorySelect value={category} onChange={setCategory} disabled={busy} />
        <DropZone
          accept={ZIP_ACCEPT}
          multiple={false}
          disabled={busy}
          file={zip}
          inputName="zip"
          inputLabel="Zip file"
          onFiles={(files) => setZip(files[0] ?? null)}
          onReject={(messages) => toastRejection(messages, NOT_ZIP)}
          prompt={
            <>
              <strong>Drop a zip of audio files here, or click to choose one</strong>
              <div className="muted">mp3, wav, ogg and flac files inside the zip are uploaded</div>
            </>
          }
        />
        <div className="row">
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {busy ? <span className="spinner" aria-hidden="true" /> : null}
            Upload Bulk
          </button>
          {progress ? (
            <span className="upload-progress">
              <progress
                className="upload-progress-bar"
                aria-label="Bulk upload progress"
                aria-valuetext={`${progress.current} of ${progress.total}`}
                max={progress.total}
                value={progress.current - 1}
              />
              Uploading {progress.current}/{progress.total}
            </span>
          ) : null}
        </div>
      </form>
    </section>
  );
}
