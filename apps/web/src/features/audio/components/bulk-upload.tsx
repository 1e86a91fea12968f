import { useRef, useState, type FormEvent } from "react";
import { toast } from "sonner";
import { DropZone } from "@tafsiri/ui/drop-zone";
import { CategorySelect } from "./category-select";
import { isFailed, uploadAudio } from "#web/features/audio/lib/upload";
import { readZipParticipants, type ZipParticipants } from "#web/features/audio/lib/zip-participants";
import { audioFilesFromZip, ZIP_ACCEPT } from "#web/lib/audio-files";
import { toastRejection } from "#web/features/audio/lib/rejection-toast";
import { announce } from "#web/lib/announce";
import { CATEGORY_REQUIRED, type Category } from "@tafsiri/domain";

const NOT_ZIP = "Please select a zip file to upload.";

/**
 * SPEC §2.16 Bulk upload: a category and a zip, unzipped in the browser; each audio entry is
 * uploaded in turn through the single-upload route while the progress shows 'Uploading n/total'.
 * Ends with one summary toast (SPEC §8) and resets the form once the archive was processed.
 * Screen readers hear 'Uploading n files' once at the start and the summary toast at the end, not
 * every step of the count; the count is a named progress bar they can read.
 * Decision 024: a `participants.csv` in the zip links each audio to its row's participant and
 * session day; once the zip is chosen, what does not match is listed as a warning (ZipWarnings).
 */
export function BulkUpload({ onUploaded }: { onUploaded(): void }) {
  const [category, setCategory] = useState<Category | "">("");
  const [zip, setZip] = useState<File | null>(null);
  const [participants, setParticipants] = useState<ZipParticipants | null>(null);
  const chosen = useRef<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState<{ current: number; total: number } | null>(null);

  /** Takes the chosen zip and reads its participants.csv, if any, so mismatches show before the upload. */
  async function choose(file: File | null) {
    setZip(file);
    setParticipants(null);
    chosen.current = file;
    if (!file) return;
    try {
      const read = await readZipParticipants(file);
      if (chosen.current !== file) return;
      if (read) {
        const mismatched = read.rowsWithoutFile.length + read.filesWithoutRow.length + read.problems.length > 0;
        announce(
          `participants.csv links ${read.links.size} audio files to participants${mismatched ? "; some rows and files do not match" : ""}.`,
        );
      }
      setParticipants(read);
    } catch {
      // An unreadable zip is told when it is uploaded ('Failed to process zip file.').
    }
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!category) return void toast.error(CATEGORY_REQUIRED);
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
        const result = await uploadAudio(category, file, participants?.links.get(file.name) ?? null);
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
      setParticipants(null);
      chosen.current = null;
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
          onFiles={(files) => void choose(files[0] ?? null)}
          onReject={(messages) => toastRejection(messages, NOT_ZIP)}
          prompt={
            <>
              <strong>Drop a zip of audio files here, or click to choose one</strong>
              <div className="muted">mp3, wav, ogg and flac files inside the zip are uploaded</div>
            </>
          }
        />
        {participants ? <ZipWarnings participants={participants} /> : null}
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

/**
 * What participants.csv of the chosen zip links, and what does not match: rows naming no file in
 * the zip, audio files with no row, rows that cannot be read. A warning, not a block.
 */
function ZipWarnings({ participants }: { participants: ZipParticipants }) {
  const { links, rowsWithoutFile, filesWithoutRow, problems } = participants;
  const lists: Array<[string, string[]]> = [
    ["Rows naming no file in the zip", rowsWithoutFile],
    ["Audio files with no row (uploaded without a participant)", filesWithoutRow],
    ["Rows that cannot be used", problems],
  ];
  const warned = lists.some(([, items]) => items.length > 0);
  return (
    <div className={warned ? "upload-manifest upload-manifest-warning" : "upload-manifest"}>
      <p className="upload-manifest-title">
        participants.csv links {links.size} {links.size === 1 ? "audio file" : "audio files"} to participants.
        {warned ? " Warning: some rows and files do not match." : ""}
      </p>
      {lists.map(([title, items]) =>
        items.length > 0 ? (
          <div key={title}>
            <p className="upload-manifest-subtitle">{title}:</p>
            <ul>
              {items.map((item) => (
                <li key={item}>{item}</li>
              ))}
            </ul>
          </div>
        ) : null,
      )}
    </div>
  );
}
