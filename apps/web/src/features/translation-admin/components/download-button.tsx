import { useState, type ReactNode } from "react";
import { toast } from "sonner";
import { errorMessage } from "#web/lib/trpc";
import { downloadExportedFile } from "#web/features/translation-admin/lib/exchange-files";
import type { ExportedFile } from "#web/features/translation-admin/lib/translation-types";

/**
 * A button that asks the server for a file (`exportGlossary`, `exportMemory`; decision 035) and
 * offers it as a download named as the server named it. Disabled with a spinner while the
 * request runs; a failure shows the server's message in a toast. `onDownloaded` gets the file.
 */
export function DownloadButton<F extends ExportedFile>({
  children,
  fetchFile,
  onDownloaded,
  disabled = false,
}: {
  children: ReactNode;
  fetchFile: () => Promise<F>;
  onDownloaded?: (file: F) => void;
  disabled?: boolean;
}) {
  const [busy, setBusy] = useState(false);

  async function download() {
    setBusy(true);
    try {
      const file = await fetchFile();
      downloadExportedFile(file);
      onDownloaded?.(file);
    } catch (error) {
      toast.error(errorMessage(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <button
      type="button"
      className="btn"
      disabled={disabled || busy}
      aria-busy={busy || undefined}
      onClick={() => void download()}
    >
      {busy ? <span className="spinner" aria-hidden="true" /> : null}
      {children}
    </button>
  );
}
