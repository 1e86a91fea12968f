import { useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { toast } from "sonner";
import type { LanguagePair } from "@tafsiri/domain";
import type { ManagedAudio } from "#web/lib/api-types";
import { errorMessage, useTRPC } from "#web/lib/trpc";
import {
  audioLanguagesOf,
  languageErrors,
  ownPairLabel,
  pairLabel,
  type LanguageFieldErrors,
  type LanguageFieldValues,
} from "#web/features/audio/lib/audio-languages";
import { LanguageFields } from "./language-fields";
import { Modal } from "./modal";

/**
 * Decision 035, Manage Audios 'Languages': a dialog with the audio's own source and target
 * languages (ISO 639-3, checked in the browser; empty for the programme's, `programme`). Save
 * sends `translation.setAudioLanguages` and toasts its answer ('Languages of interview-3: lug →
 * eng.'); a refusal is shown in the dialog and nothing changes. Calls `onSaved` after a change.
 */
export function AudioLanguagesDialog({
  audio,
  programme,
  onSaved,
}: {
  audio: ManagedAudio;
  programme: LanguagePair | null;
  onSaved(): void;
}) {
  const trpc = useTRPC();
  const [open, setOpen] = useState(false);
  const [values, setValues] = useState<LanguageFieldValues>({ source: "", target: "" });
  const [errors, setErrors] = useState<LanguageFieldErrors>({});
  const [problem, setProblem] = useState<string | null>(null);
  const setLanguages = useMutation(trpc.translation.setAudioLanguages.mutationOptions());
  const pending = setLanguages.isPending;
  const own = ownPairLabel(audio, programme);

  function changeOpen(next: boolean) {
    if (pending) return;
    setOpen(next);
    if (next) {
      setValues({ source: audio.sourceLanguage ?? "", target: audio.targetLanguage ?? "" });
      setErrors({});
      setProblem(null);
    }
  }

  async function save() {
    setProblem(null);
    const found = languageErrors(values);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    try {
      const { message } = await setLanguages.mutateAsync({ audioId: audio.id, ...audioLanguagesOf(values) });
      toast.success(message);
      setOpen(false);
      onSaved();
    } catch (error) {
      setProblem(errorMessage(error));
    }
  }

  const programmeText = programme ? ` (${pairLabel(programme)})` : "";
  return (
    <Modal
      open={open}
      onOpenChange={changeOpen}
      title="Languages of this audio"
      description={
        own
          ? `${audio.filename} has languages of its own: ${own}.`
          : `${audio.filename} uses the programme's languages${programmeText}.`
      }
      trigger={
        <button type="button" className="btn btn-sm">
          Languages <span className="sr-only">of {audio.filename}</span>
        </button>
      }
    >
      <form
        className="stack"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <LanguageFields
          legend="Its own languages"
          values={values}
          errors={errors}
          programme={programme}
          disabled={pending}
          onChange={(next) => {
            setValues(next);
            setErrors({});
          }}
        />
        {problem ? (
          <p className="field-error" role="alert">
            {problem}
          </p>
        ) : null}
        <div className="dialog-actions">
          <button type="button" className="btn" disabled={pending} onClick={() => changeOpen(false)}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={pending}>
            {pending ? <span className="spinner" aria-hidden="true" /> : null}
            Save
          </button>
        </div>
      </form>
    </Modal>
  );
}
