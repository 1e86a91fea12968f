import { useId, useState, type FormEvent } from "react";
import { useMutation } from "@tanstack/react-query";
import { toast } from "sonner";
import {
  GLOSSARY_NOTE_MAX_LENGTH,
  GLOSSARY_NOTE_TOO_LONG,
  GLOSSARY_TERM_EMPTY,
  GLOSSARY_TERM_MAX_LENGTH,
  GLOSSARY_TERM_TOO_LONG,
} from "@tafsiri/domain";
import { TextField } from "#web/components/field";
import { errorMessage, useTRPC } from "#web/lib/trpc";
import type { LanguagePair } from "#web/features/translation-admin/lib/translation-types";
import { useInvalidateGlossary } from "#web/features/translation-admin/hooks/use-glossary";

type TermField = "sourceTerm" | "targetTerm" | "note";
const EMPTY = { sourceTerm: "", targetTerm: "", note: "" };

/** The browser's checks of a term, with @tafsiri/domain's limits and messages (the server's own). */
function termErrors(term: typeof EMPTY): Partial<Record<TermField, string>> {
  const errors: Partial<Record<TermField, string>> = {};
  for (const field of ["sourceTerm", "targetTerm"] as const) {
    const text = term[field].trim();
    if (text === "") errors[field] = GLOSSARY_TERM_EMPTY;
    else if (text.length > GLOSSARY_TERM_MAX_LENGTH) errors[field] = GLOSSARY_TERM_TOO_LONG;
  }
  if (term.note.trim().length > GLOSSARY_NOTE_MAX_LENGTH) errors.note = GLOSSARY_NOTE_TOO_LONG;
  return errors;
}

/**
 * 'Add a term' to the glossary of `pair` (decision 035): source term, target term and an optional
 * note for translators, checked in the browser with the server's limits (an inline error, the
 * first field in error focused), then `translation.addTerm`. The server's message shows in a
 * toast (a term already there, any case, only gets the new note); on success the fields empty and
 * the source term has the focus again for the next term.
 */
export function AddTermForm({ pair }: { pair: LanguagePair }) {
  const id = useId();
  const trpc = useTRPC();
  const invalidate = useInvalidateGlossary();
  const add = useMutation(trpc.translation.addTerm.mutationOptions());
  const [term, setTerm] = useState(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<TermField, string>>>({});
  const set = (field: TermField, value: string) => {
    setTerm((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (add.isPending) return;
    const found = termErrors(term);
    setErrors(found);
    const first = (["sourceTerm", "targetTerm", "note"] as const).find((field) => found[field]);
    if (first) return document.getElementById(`${id}-${first}`)?.focus();
    try {
      const result = await add.mutateAsync({ pair, ...term });
      toast.success(result.message);
      setTerm(EMPTY);
      await invalidate();
      document.getElementById(`${id}-sourceTerm`)?.focus();
    } catch (error) {
      toast.error(errorMessage(error));
    }
  }

  const field = (name: TermField, label: string, maxLength: number, hint?: string) => (
    <TextField
      id={`${id}-${name}`}
      label={label}
      hint={hint}
      error={errors[name]}
      value={term[name]}
      maxLength={maxLength}
      autoComplete="off"
      disabled={add.isPending}
      onChange={(value) => set(name, value)}
    />
  );

  return (
    <form
      className="translation-admin-subsection stack"
      noValidate
      onSubmit={(e) => void submit(e)}
      aria-labelledby={`${id}-title`}
    >
      <h3 id={`${id}-title`} className="translation-admin-subtitle">
        Add a term
      </h3>
      <div className="translation-admin-term-fields">
        {field("sourceTerm", `Source term (${pair.source})`, GLOSSARY_TERM_MAX_LENGTH)}
        {field("targetTerm", `Target term (${pair.target})`, GLOSSARY_TERM_MAX_LENGTH)}
      </div>
      {field("note", "Note", GLOSSARY_NOTE_MAX_LENGTH, "Optional: when to use the term, for the translators.")}
      <div className="row">
        <button
          type="submit"
          className="btn btn-primary"
          disabled={add.isPending}
          aria-busy={add.isPending || undefined}
        >
          {add.isPending ? <span className="spinner" aria-hidden="true" /> : null}
          Add term
        </button>
      </div>
    </form>
  );
}
