import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { useTRPCClient } from "#web/lib/trpc";
import { Modal } from "./modal";
import { UploadTranscriptDialog } from "./upload-transcript-dialog";

/** SPEC §8: the transcript's file is missing (no URL, or the file is gone from storage). */
const TRANSCRIPT_NOT_FOUND = "Transcript file not found";

/**
 * SPEC §2.18 'View Transcript': a modal showing an audio's initial transcript as text, fetched
 * with a plain GET from the signed URL that audios.get returns (SPEC §7.2). 'Replace transcript'
 * picks another file and, after a confirmation, replaces it; the modal then shows the
 * new text and `onReplaced` runs. A missing file shows 'Transcript file not found' (SPEC §8); any
 * other failure 'Failed to load transcript.'.
 */
export function ViewTranscriptDialog({
  audioId,
  filename,
  onReplaced,
}: {
  audioId: string;
  filename: string;
  onReplaced(): void;
}) {
  const client = useTRPCClient();
  const [open, setOpen] = useState(false);
  const transcript = useQuery({
    queryKey: ["management", "initial-transcript", audioId],
    enabled: open,
    staleTime: 0,
    gcTime: 0,
    retry: false,
    queryFn: async () => {
      const audio = await client.audios.get.query({ audioId });
      if (!audio.transcriptUrl) throw new Error(TRANSCRIPT_NOT_FOUND);
      // no-store: a replaced transcript keeps its key, so a cached answer would show the old text.
      const response = await fetch(audio.transcriptUrl, { cache: "no-store" });
      if (response.status === 404) throw new Error(TRANSCRIPT_NOT_FOUND);
      if (!response.ok) throw new Error(response.statusText);
      return response.text();
    },
  });

  return (
    <Modal
      open={open}
      onOpenChange={setOpen}
      title="Transcript"
      description={filename}
      trigger={
        <button type="button" className="btn btn-sm">
          View Transcript
        </button>
      }
    >
      {transcript.isPending ? (
        <p role="status">
          <span className="spinner" aria-hidden="true" /> Loading transcript…
        </p>
      ) : transcript.isError ? (
        <p className="field-error" role="alert">
          {transcript.error.message === TRANSCRIPT_NOT_FOUND ? TRANSCRIPT_NOT_FOUND : "Failed to load transcript."}
        </p>
      ) : (
        <pre className="transcript-text">{transcript.data}</pre>
      )}
      <div className="dialog-actions">
        <UploadTranscriptDialog
          audioId={audioId}
          filename={filename}
          replace
          onUploaded={() => {
            void transcript.refetch();
            onReplaced();
          }}
        />
        <button type="button" className="btn" onClick={() => setOpen(false)}>
          Close
        </button>
      </div>
    </Modal>
  );
}
