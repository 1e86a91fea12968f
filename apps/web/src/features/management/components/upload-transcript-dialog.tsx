import { useState } from "react";
import { toast } from "sonner";
import { DropZone } from "@tafsiri/ui/drop-zone";
import { Modal } from "./modal";
import { isFailed, uploadInitialTranscript } from "../lib/upload";
import { toastRejection } from "../lib/rejection-toast";

/** Initial transcript types (SPEC §9): .doc, .docx, .pdf, .txt. */
const TRANSCRIPT_ACCEPT: Record<string, string[]> = {
  "application/msword": [".doc"],
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document": [".docx"],
  "application/pdf": [".pdf"],
  "text/plain": [".txt"],
};

/**
 * SPEC §2.18 'Upload Transcript': a modal with a file picker (.doc, .docx, .pdf, .txt), Cancel and
 * Upload; sends the file as the audio's initial transcript and calls `onUploaded` on success.
 */
export function UploadTranscriptDialog({
  audioId,
  filename,
  onUploaded,
}: {
  audioId: string;
  filename: string;
  onUploaded(): void;
}) {
  const [open, setOpen] = useState(false);
  const [file, setFile] = useState<File | null>(null);
  const [uploading, setUploading] = useState(false);

  function changeOpen(next: boolean) {
    if (uploading) return;
    setOpen(next);
    if (!next) setFile(null);
  }

  async function upload() {
    if (!file) return void toast.error("Please select a file to upload.");
    setUploading(true);
    const result = await uploadInitialTranscript(audioId, file);
    setUploading(false);
    if (isFailed(result)) {
      toast.error(`Error uploading transcript, server error: ${result.message ?? ""}`);
      return;
    }
    toast.success("Transcript uploaded successfully!");
    setOpen(false);
    setFile(null);
    onUploaded();
  }

  return (
    <Modal
      open={open}
      onOpenChange={changeOpen}
      title="Upload Transcript"
      description={filename}
      trigger={
        <button type="button" className="btn btn-sm">
          Upload Transcript
        </button>
      }
    >
      <DropZone
        accept={TRANSCRIPT_ACCEPT}
        multiple={false}
        disabled={uploading}
        file={file}
        inputName="transcript"
        inputLabel="Transcript file"
        onFiles={(files) => setFile(files[0] ?? null)}
        onReject={(messages) => toastRejection(messages, "Please select a .doc, .docx, .pdf or .txt file.")}
        prompt={
          <>
            <strong>Drop a transcript here, or click to choose one</strong>
            <div className="muted">.doc, .docx, .pdf or .txt</div>
          </>
        }
      />
      <div className="dialog-actions">
        <button type="button" className="btn" disabled={uploading} onClick={() => changeOpen(false)}>
          Cancel
        </button>
        <button type="button" className="btn btn-primary" disabled={uploading} onClick={() => void upload()}>
          {uploading ? <span className="spinner" aria-hidden="true" /> : null}
          Upload
        </button>
      </div>
    </Modal>
  );
}
