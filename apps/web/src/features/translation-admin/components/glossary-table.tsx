import { useId, useRef, useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { toast } from "sonner";
import { ConfirmDialog } from "#web/components/confirm-dialog";
import { errorMessage, useTRPC } from "#web/lib/trpc";
import { pairLabel } from "#web/features/translation-admin/lib/settings-form";
import type { GlossaryTerm, LanguagePair } from "#web/features/translation-admin/lib/translation-types";
import { useGlossary, useInvalidateGlossary } from "#web/features/translation-admin/hooks/use-glossary";

/** The attribute marking each row's Remove button, to move the focus to a neighbour after a removal. */
const REMOVE_BUTTON = "data-glossary-remove";

/**
 * The glossary of `pair` as a table (decision 035): source term (a row header), target term,
 * note and 'Remove' (after a confirmation) per term, sorted by source term as the server lists
 * them, with loading, error (with Retry) and empty states and the count of terms. After a removal
 * the focus moves to the Remove button now in the same place (or the one before it), else to the
 * table's heading, as the removed row's button is gone.
 */
export function GlossaryTable({ pair }: { pair: LanguagePair }) {
  const id = useId();
  const glossary = useGlossary(pair);
  const tableRef = useRef<HTMLTableElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);

  function focusAfterRemoval(index: number) {
    const focusNext = () => {
      const buttons = tableRef.current?.querySelectorAll<HTMLButtonElement>(`button[${REMOVE_BUTTON}]`) ?? [];
      const next = buttons[Math.min(index, buttons.length - 1)];
      if (next) next.focus();
      else headingRef.current?.focus();
    };
    window.requestAnimationFrame(focusNext);
    // The closing dialog gives the focus back to its trigger, which the removal took away (radix
    // does it in a timeout of its own when the dialog unmounts): until then, put it back here once.
    const settle = (tries: number) =>
      window.setTimeout(() => {
        const lost = document.activeElement === document.body || !document.activeElement?.isConnected;
        if (lost) focusNext();
        else if (tries > 0) settle(tries - 1);
      }, 100);
    settle(5);
  }

  let body;
  if (glossary.isPending) {
    body = (
      <td colSpan={4} className="empty-state" role="status">
        <span className="spinner" aria-hidden="true" /> Loading the glossary…
      </td>
    );
  } else if (glossary.isError && !glossary.data) {
    body = (
      <td colSpan={4} className="empty-state" role="alert">
        <p>The glossary could not be loaded: {errorMessage(glossary.error)}</p>
        <button type="button" className="btn" onClick={() => void glossary.refetch()}>
          Retry
        </button>
      </td>
    );
  } else if (glossary.data.length === 0) {
    body = (
      <td colSpan={4} className="empty-state">
        No terms for {pairLabel(pair)} yet. Add one or import a glossary.
      </td>
    );
  }
  const count = glossary.data?.length ?? 0;

  return (
    <div className="stack translation-admin-glossary">
      <div className="row translation-admin-table-head">
        <h3 id={`${id}-title`} ref={headingRef} tabIndex={-1} className="translation-admin-subtitle">
          Terms
        </h3>
        <p className="muted translation-admin-count" role="status">
          {glossary.data ? `${count} ${count === 1 ? "term" : "terms"}` : ""}
        </p>
      </div>
      <div className="table-wrap translation-admin-table-wrap">
        <table ref={tableRef} className="table translation-admin-table" aria-labelledby={`${id}-caption`}>
          <caption id={`${id}-caption`} className="sr-only">
            Glossary {pairLabel(pair)}
          </caption>
          <thead>
            <tr>
              <th scope="col">Source term ({pair.source})</th>
              <th scope="col">Target term ({pair.target})</th>
              <th scope="col">Note</th>
              <th scope="col">Action</th>
            </tr>
          </thead>
          <tbody aria-busy={glossary.isFetching ? true : undefined}>
            {body ? (
              <tr>{body}</tr>
            ) : (
              glossary.data?.map((term, index) => (
                <TermRow key={term.id} term={term} pair={pair} onRemoved={() => focusAfterRemoval(index)} />
              ))
            )}
          </tbody>
        </table>
      </div>
    </div>
  );
}

/** One term of the glossary table, with 'Remove' asking for a confirmation first. */
function TermRow({ term, pair, onRemoved }: { term: GlossaryTerm; pair: LanguagePair; onRemoved: () => void }) {
  const trpc = useTRPC();
  const invalidate = useInvalidateGlossary();
  const remove = useMutation(trpc.translation.removeTerm.mutationOptions());
  const [confirming, setConfirming] = useState(false);

  async function confirm() {
    try {
      const result = await remove.mutateAsync({ id: term.id });
      toast.success(result.message);
      setConfirming(false);
      await invalidate();
      onRemoved();
    } catch (error) {
      toast.error(errorMessage(error));
    }
  }

  return (
    <tr>
      <th scope="row" className="translation-admin-term">
        {term.sourceTerm}
      </th>
      <td className="translation-admin-term">{term.targetTerm}</td>
      <td className="translation-admin-note">{term.note || <span className="muted">—</span>}</td>
      <td>
        <ConfirmDialog
          open={confirming}
          onOpenChange={setConfirming}
          trigger={
            <button type="button" className="btn btn-sm btn-outline-danger" {...{ [REMOVE_BUTTON]: "" }}>
              Remove <span className="sr-only">{term.sourceTerm}</span>
            </button>
          }
          title={`Remove "${term.sourceTerm}" from the glossary?`}
          description={`"${term.sourceTerm}" → "${term.targetTerm}" leaves the glossary of ${pairLabel(pair)}; translators no longer see it or are checked against it.`}
          confirmLabel="Remove"
          pending={remove.isPending}
          onConfirm={() => void confirm()}
        />
      </td>
    </tr>
  );
}
