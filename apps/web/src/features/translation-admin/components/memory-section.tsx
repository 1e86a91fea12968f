import { useId, useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { useTRPC, useTRPCClient } from "#web/lib/trpc";
import { MEMORY_FILE_TYPES } from "#web/features/translation-admin/lib/exchange-files";
import { pairLabel } from "#web/features/translation-admin/lib/settings-form";
import type { LanguagePair } from "#web/features/translation-admin/lib/translation-types";
import { DownloadButton } from "./download-button";
import { FileImport } from "./file-import";

/** A number of memory entries in words: '1 entry', '1,204 entries'. */
function entriesInWords(count: number): string {
  return `${count.toLocaleString("en")} ${count === 1 ? "entry" : "entries"}`;
}

/**
 * The translation memory of `pair` (decision 035): 'Import TMX' (a TMX file of another tool,
 * read in the browser and sent to `importMemory`; its units of this pair are added, marked
 * imported) and 'Export TMX' (a download of what `exportMemory` writes). The server tells how
 * many entries the memory holds only with an export, so the count shows after one.
 */
export function MemorySection({ pair }: { pair: LanguagePair }) {
  const id = useId();
  const trpc = useTRPC();
  const client = useTRPCClient();
  const importMemory = useMutation(trpc.translation.importMemory.mutationOptions());
  const [exported, setExported] = useState<{ pair: LanguagePair; fileName: string; count: number } | null>(null);
  const shown = exported && exported.pair.source === pair.source && exported.pair.target === pair.target;

  return (
    <section className="card stack" aria-labelledby={`${id}-title`}>
      <div className="row translation-admin-section-head">
        <h2 id={`${id}-title`} className="section-title">
          Translation memory: {pairLabel(pair)}
        </h2>
        <DownloadButton
          fetchFile={() => client.translation.exportMemory.query(pair)}
          onDownloaded={({ fileName, count }) => setExported({ pair, fileName, count })}
        >
          Export TMX
        </DownloadButton>
      </div>
      <p className="muted translation-admin-intro">
        Every approved translation adds its segments to the memory of its pair; translators are offered the closest
        matches. Import the memory of another tool (OmegaT, Weblate, memoQ, Trados) as TMX.
      </p>
      <p className="translation-admin-count" role="status">
        {shown ? `Exported ${entriesInWords(exported.count)} to ${exported.fileName}.` : ""}
      </p>
      <div className="translation-admin-subsection">
        <FileImport
          label="TMX file"
          hint={`A TMX file (any 1.x version): each unit with text in both ${pair.source} and ${pair.target} is added, the others are skipped.`}
          accept={MEMORY_FILE_TYPES}
          buttonLabel="Import TMX"
          onImport={(content) => importMemory.mutateAsync({ pair, content })}
        />
      </div>
    </section>
  );
}
