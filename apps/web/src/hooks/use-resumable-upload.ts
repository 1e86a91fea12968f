import { useCallback, useRef, useState } from "react";
import type { RestResult } from "#web/lib/rest";
import { startResumableUpload, type UploadKind, type UploadProgress } from "#web/lib/resumable-upload";

/** What a form needs of a resumable upload: start it, see its progress, pause and resume it. */
export interface ResumableUploadState {
  /** Sends `file` (see startResumableUpload); resolves with the server's answer, never rejects. */
  start(file: File, kind: UploadKind, fields: Record<string, string>): Promise<RestResult>;
  /** null when no upload runs. */
  progress: UploadProgress | null;
  paused: boolean;
  pause(): void;
  resume(): void;
}

/** One resumable upload at a time for a form (decision 020), with its progress, Pause and Resume. */
export function useResumableUpload(): ResumableUploadState {
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const [paused, setPaused] = useState(false);
  const current = useRef<ReturnType<typeof startResumableUpload> | null>(null);

  const start = useCallback(async (file: File, kind: UploadKind, fields: Record<string, string>) => {
    setPaused(false);
    setProgress({ bytesSent: 0, bytesTotal: file.size, bytesPerSecond: 0, secondsLeft: null });
    const upload = startResumableUpload(file, kind, fields, setProgress);
    current.current = upload;
    try {
      return await upload.done;
    } finally {
      current.current = null;
      setProgress(null);
      setPaused(false);
    }
  }, []);

  const pause = useCallback(() => {
    current.current?.pause();
    setPaused(true);
  }, []);
  const resume = useCallback(() => {
    current.current?.resume();
    setPaused(false);
  }, []);

  return { start, progress, paused, pause, resume };
}
