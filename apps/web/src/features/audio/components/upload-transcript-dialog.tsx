import { useState } from "react";
import { INITIAL_TRANSCRIPT_ACCEPT, INITIAL_TRANSCRIPT_TYPE_REQUIRED } from "@tafsiri/domain";
import { toast } from "sonner";
import { DropZone } from "@tafsiri/ui/drop-zone";
import { ConfirmDialog } from "#web/components/confirm-dialog";
import { Modal } from "./modal";
import { isFailed, uploadInitialTranscript } from "#web/features/audio/lib/upload";
import { toastRejection } from "#web/features/audio/lib/rejection-toast";

const FILE_REQUIRED = "Please select a file to upload.";

/**
 * SPEC §2.18 'Upload Transcript': a modal with a file picker (.doc, .docx, .pdf, .txt, and .cha by decision 035), Cancel and
 * Upload; sends the file as the audio's initial transcript and calls `onUploaded` on success.
 * With `replace` (offered from 'View Transcript' once an audio has one) it is 'Replace transcript':
 * the same picker, whose Replace button asks for a confirmation first and then sends the file
 * with replace=true (the server refuses to overwrite a transcript otherwise).
 */
export function UploadTranscriptDialog({
  audioId,
  filename,
  replace = false,
  onUploaded,
}: {
  audioId: string;
  filename: string;
  replace?: boolean;
  onUploaded(): void;
}) {
  const [open, setOpen] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [file, setFile] = useState<File | null>(null);
  const [uploading, setUploading] = useState(false);

  function changeOpen(next: boolean) {
    if (uploading) return;
    setOpen(next);
    if (!next) setFile(null);
  }

  /** Opens the confirmation of a replacement once a file is chosen. */
  function changeConfirming(next: boolean) {
    if (next && !file) return void toast.error(FILE_REQUIRED);
    setConfirming(next);
  }

  async function upload() {
    if (!file) return void toast.error(FILE_REQUIRED);
    setUploading(true);
    const result = await uploadInitialTranscript(audioId, file, { replace });
    setUploading(false);
    setConfirming(false);
    if (isFailed(result)) {
      toast.error(`Error uploading transcript, server error: ${result.message ?? ""}`);
      return;
    }
    toast.success(replace ? "Transcript replaced successfully!" : "Transcript uploaded successfully!");
    setOpen(false);
    setFile(null);
    onUploaded();
  }

  const submit = replace ? (
    <ConfirmDialog
      open={confirming}
      onOpenChange={changeConfirming}
      trigger={
        <button type="button" className="btn btn-danger" disabled={uploading}>
          Replace
        </button>
      }
      title="Replace the transcript?"
      description="The current transcript will be replaced by the chosen file. This action is not reversible !"
      confirmLabel="Replace transcript"
      pending={uploading}
      onConfirm={() => void upload()}
    >
      <p className="muted">
        {filename}: {file?.name}
      </p>
    </ConfirmDialog>
  ) : (
    <button type="button" className="btn btn-primary" disabled={uploading} onClick={() => void upload()}>
      {uploading ? <span className="spinner" aria-hidden="true" /> : null}
      Upload
    </button>
  );

  return (
    <Modal
      open={open}
      onOpenChange={changeOpen}
      title={replace ? "Replace Transcript" : "Upload Transcript"}
      description={filename}
      trigger={
        <button type="button" className={replace ? "btn" : "btn btn-sm"}>
          {replace ? "Replace transcript" : "Upload Transcript"}
        </button>
      }
    >
      <DropZone
        accept={INITIAL_TRANSCRIPT_ACCEPT}
        multiple={false}
        disabled={uploading}
        file={file}
        inputName="transcript"
        inputLabel="Transcript file"
        onFiles={(files) => setFile(files[0] ?? null)}
        onReject={(messages) => toastRejection(messages, INITIAL_TRANSCRIPT_TYPE_REQUIRED)}
        prompt={
          <>
            <strong>Drop a transcript here, or click to choose one</strong>
            <div className="muted">.cha, .doc, .docx, .pdf or .txt</div>
          </>
        }
      />
      <div className="dialog-actions">
        <button type="button" className="btn" disabled={uploading} onClick={() => changeOpen(false)}>
          Cancel
        </button>
        {submit}
      </div>
    </Modal>
  );
}
