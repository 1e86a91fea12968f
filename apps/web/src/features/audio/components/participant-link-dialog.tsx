import { useDeferredValue, useId, useState } from "react";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { PARTICIPANT_CODE_MAX_LENGTH } from "@tafsiri/domain";
import type { ManagedAudio } from "#web/lib/api-types";
import { errorMessage, useTRPC } from "#web/lib/trpc";
import { TextField } from "#web/components/field";
import { Modal } from "./modal";
import { SessionDateField } from "./session-date-field";

/** How many participants the picker lists at once. */
const CHOICES = 8;

/**
 * Decision 024, Manage Audios 'Participant': a dialog to link the audio to a participant, picked
 * by code (a search by code prefix over `participants.list`), with the session's day, or to unlink
 * it. The server's refusal (e.g. 'This audio is labelled Control but participant P0042 is in the
 * Dementia group.') is shown in the dialog and nothing changes. Calls `onLinked` after a change.
 */
export function ParticipantLinkDialog({ audio, onLinked }: { audio: ManagedAudio; onLinked(): void }) {
  const id = useId();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [search, setSearch] = useState("");
  const [participantId, setParticipantId] = useState("");
  const [sessionDate, setSessionDate] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const deferredSearch = useDeferredValue(search.trim());
  const link = useMutation(trpc.participants.linkAudio.mutationOptions());
  const choices = useQuery({
    ...trpc.participants.list.queryOptions({ search: deferredSearch || undefined, page: 1, limit: CHOICES }),
    enabled: open,
    placeholderData: keepPreviousData,
  });
  const pending = link.isPending;
  const linked = audio.participantCode !== null;

  function changeOpen(next: boolean) {
    if (pending) return;
    setOpen(next);
    if (next) {
      setSearch(audio.participantCode ?? "");
      setParticipantId("");
      setSessionDate(audio.sessionDate ?? "");
      setProblem(null);
    }
  }

  async function save(target: string | null) {
    setProblem(null);
    if (target === "") return setProblem("Choose a participant to link.");
    try {
      const { message } = await link.mutateAsync({
        audioId: audio.id,
        participantId: target,
        sessionDate: target ? sessionDate || null : null,
      });
      toast.success(message);
      setOpen(false);
      onLinked();
      // The participants' audio counts and recordings changed too.
      void queryClient.invalidateQueries(trpc.participants.pathFilter());
    } catch (error) {
      setProblem(errorMessage(error));
    }
  }

  const items = choices.data?.items ?? [];
  // The participant linked now is chosen until another is.
  const selected = participantId || (items.find((p) => p.code === audio.participantCode)?.id ?? "");
  return (
    <Modal
      open={open}
      onOpenChange={changeOpen}
      title="Participant of this audio"
      description={
        linked
          ? `${audio.filename} (${audio.category}) belongs to participant ${audio.participantCode}.`
          : `${audio.filename} (${audio.category}) is not linked to a participant.`
      }
      trigger={
        <button type="button" className="btn btn-sm">
          Participant <span className="sr-only">of {audio.filename}</span>
        </button>
      }
    >
      <form
        className="stack"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void save(selected);
        }}
      >
        <TextField
          id={`${id}-search`}
          label="Find a participant by code"
          type="search"
          autoComplete="off"
          maxLength={PARTICIPANT_CODE_MAX_LENGTH}
          value={search}
          disabled={pending}
          onChange={(value) => {
            setSearch(value);
            setParticipantId("");
          }}
        />
        <fieldset className="participant-choices" aria-busy={choices.isFetching ? true : undefined}>
          <legend className="label">Participant</legend>
          {choices.isPending ? (
            <p className="muted" role="status">
              <span className="spinner" aria-hidden="true" /> Loading participants…
            </p>
          ) : choices.isError ? (
            <p className="field-error" role="alert">
              The participants could not be loaded: {errorMessage(choices.error)}
            </p>
          ) : items.length === 0 ? (
            <p className="muted">
              {deferredSearch ? `No participant's code starts with ${deferredSearch}.` : "No participants yet."}
            </p>
          ) : (
            items.map((p) => (
              <label key={p.id} className="filter-option">
                <input
                  type="radio"
                  name={`${id}-participant`}
                  value={p.id}
                  checked={selected === p.id}
                  disabled={pending}
                  onChange={() => setParticipantId(p.id)}
                />
                {p.code} · {p.group}
              </label>
            ))
          )}
        </fieldset>
        <SessionDateField value={sessionDate} onChange={setSessionDate} disabled={pending} />
        {problem ? (
          <p className="field-error" role="alert">
            {problem}
          </p>
        ) : null}
        <div className="dialog-actions">
          <button type="button" className="btn" disabled={pending} onClick={() => changeOpen(false)}>
            Cancel
          </button>
          {linked ? (
            <button type="button" className="btn btn-outline-danger" disabled={pending} onClick={() => void save(null)}>
              Unlink
            </button>
          ) : null}
          <button type="submit" className="btn btn-primary" disabled={pending}>
            {pending ? <span className="spinner" aria-hidden="true" /> : null}
            Link
          </button>
        </div>
      </form>
    </Modal>
  );
}
