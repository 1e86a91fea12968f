import { useId } from "react";
import { useMutation } from "@tanstack/react-query";
import { useTRPC, useTRPCClient } from "#web/lib/trpc";
import { GLOSSARY_FILE_TYPES } from "#web/features/translation-admin/lib/exchange-files";
import { pairLabel } from "#web/features/translation-admin/lib/settings-form";
import type { LanguagePair } from "#web/features/translation-admin/lib/translation-types";
import { useInvalidateGlossary } from "#web/features/translation-admin/hooks/use-glossary";
import { AddTermForm } from "./add-term-form";
import { DownloadButton } from "./download-button";
import { FileImport } from "./file-import";
import { GlossaryTable } from "./glossary-table";

/**
 * The glossary of `pair` (decision 035): its terms (GlossaryTable), 'Export CSV' and 'Export TBX'
 * (downloads of what `exportGlossary` writes), 'Add a term' and 'Import glossary' (a CSV, OmegaT
 * tab-separated or TBX file, read in the browser and sent to `importGlossary`; a term already
 * there, any case, only gets the file's note).
 */
export function GlossarySection({ pair }: { pair: LanguagePair }) {
  const id = useId();
  const trpc = useTRPC();
  const client = useTRPCClient();
  const invalidate = useInvalidateGlossary();
  const importGlossary = useMutation(trpc.translation.importGlossary.mutationOptions());

  async function importFile(content: string) {
    const result = await importGlossary.mutateAsync({ pair, content });
    await invalidate();
    return result;
  }

  return (
    <section className="card stack" aria-labelledby={`${id}-title`}>
      <div className="row translation-admin-section-head">
        <h2 id={`${id}-title`} className="section-title">
          Glossary: {pairLabel(pair)}
        </h2>
        <div className="row row-tight">
          <DownloadButton fetchFile={() => client.translation.exportGlossary.query({ pair, format: "csv" })}>
            Export CSV
          </DownloadButton>
          <DownloadButton fetchFile={() => client.translation.exportGlossary.query({ pair, format: "tbx" })}>
            Export TBX
          </DownloadButton>
        </div>
      </div>
      <p className="muted translation-admin-intro">
        Terms translators should render one way in this pair. A translation that leaves out the glossary&apos;s term for
        a term of its source gets a warning.
      </p>
      <GlossaryTable pair={pair} />
      <div className="translation-admin-columns">
        <AddTermForm pair={pair} />
        <div className="translation-admin-subsection stack">
          <h3 className="translation-admin-subtitle">Import a glossary</h3>
          <FileImport
            label="Glossary file"
            hint={
              <>
                CSV with the header <code>source,target,note</code>, OmegaT&apos;s tab-separated text (source, target,
                comment), or TBX. Terms already in the glossary keep one entry and take the file&apos;s note.
              </>
            }
            accept={GLOSSARY_FILE_TYPES}
            buttonLabel="Import glossary"
            onImport={importFile}
          />
        </div>
      </div>
    </section>
  );
}
