import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { useTRPCClient } from "../../../lib/trpc";
import { Modal } from "./modal";

/**
 * SPEC §2.18 'View Transcript': a modal showing an audio's initial transcript as text, fetched
 * with a plain GET from the signed URL that audios.get returns (SPEC §7.2).
 */
export function ViewTranscriptDialog({ audioId, filename }: { audioId: string; filename: string }) {
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
      if (!audio.transcriptUrl) throw new Error("Transcript file not found");
      const response = await fetch(audio.transcriptUrl);
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
          Failed to load transcript.
        </p>
      ) : (
        <pre className="transcript-text">{transcript.data}</pre>
      )}
      <div className="dialog-actions">
        <button type="button" className="btn" onClick={() => setOpen(false)}>
          Close
        </button>
      </div>
    </Modal>
  );
}
