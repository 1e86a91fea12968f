import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import type { ManagedAudio } from "#web/lib/api-types";
import { Duration } from "@tafsiri/ui/duration";
import { StatusBadge } from "@tafsiri/ui/status-badge";
import { errorMessage, useTRPC } from "#web/lib/trpc";
import { CategoryToggle } from "#web/components/category-toggle";
import { DeleteAudioDialog } from "./delete-audio-dialog";
import { Pagination } from "@tafsiri/ui/pagination";
import { ParticipantLinkDialog } from "./participant-link-dialog";
import { AudioLanguagesDialog } from "./audio-languages-dialog";
import { ReassignDialog } from "./reassign-dialog";
import { UploadTranscriptDialog } from "./upload-transcript-dialog";
import { ViewTranscriptDialog } from "./view-transcript-dialog";
import { useErrorToast } from "#web/hooks/use-error-toast";
import { useInvalidateAudios } from "#web/hooks/use-invalidate-audios";
import { useStaff } from "#web/hooks/use-staff";
import { useProgrammePair } from "#web/features/audio/hooks/use-programme-pair";
import { ownPairLabel } from "#web/features/audio/lib/audio-languages";
import "#web/features/audio/audio-languages.css";
import { CATEGORIES, type Category } from "@tafsiri/domain";

const PAGE_SIZE = 50;
const COLUMNS = [
  "Audio Name",
  "Duration",
  "Category",
  "Participant",
  "Assigned to",
  "Translation Status",
  "Recording Status",
  "Completion Status",
  "Transcript",
  "Action",
];

/** A task stage status as a badge, or 'N/A' for an audio without a task (SPEC §2.18). */
function StageCell({ status }: { status: string | null }) {
  return <td>{status ? <StatusBadge status={status} /> : <span className="muted">N/A</span>}</td>;
}

/**
 * SPEC §2.18 Manage Audios: every audio of a category with its duration ('—' while not known),
 * its own language pair under its name when it has one (decision 035, e.g. 'lug → eng'),
 * participant and session day (decision 024; '—' when not linked), assignee, stage statuses and
 * completion; view, upload or (after a confirmation) replace the initial transcript, link to a
 * participant, set its languages, reassign, delete. Paginated.
 */
export function ManageAudios() {
  const trpc = useTRPC();
  const invalidate = useInvalidateAudios();
  const [category, setCategory] = useState<Category>(CATEGORIES[0]);
  const [page, setPage] = useState(1);

  const audios = useQuery(trpc.audios.list.queryOptions({ category, page, limit: PAGE_SIZE }));
  useErrorToast(audios.error, (error) => `Failed to load ${category} audios: ${errorMessage(error)}`);
  const staff = useStaff();
  const programme = useProgrammePair();
  const rows = audios.data?.items ?? [];
  const refresh = () => void invalidate();

  function row(audio: ManagedAudio) {
    const completion = audio.isComplete === null ? null : audio.isComplete ? "Complete" : "Pending";
    const ownPair = ownPairLabel(audio, programme);
    return (
      <tr key={audio.id} data-audio-id={audio.id}>
        <td className="audio-name">
          {audio.filename}
          {ownPair ? (
            <span className="audio-pair">
              <span className="sr-only">, languages </span>
              {ownPair}
            </span>
          ) : null}
        </td>
        <td>
          <Duration seconds={audio.durationSeconds} />
        </td>
        <td>
          <span className={`category-chip category-${audio.category.toLowerCase()}`}>{audio.category}</span>
        </td>
        <td>
          {audio.participantCode ? (
            <span className="audio-participant">
              {audio.participantCode}
              <span className="muted">
                {audio.sessionDate ? (
                  <>
                    <span className="sr-only">, session </span>
                    <time dateTime={audio.sessionDate}>{audio.sessionDate}</time>
                  </>
                ) : (
                  <span className="sr-only">, session date not recorded</span>
                )}
              </span>
            </span>
          ) : (
            <span className="muted">
              <span aria-hidden="true">—</span>
              <span className="sr-only">No participant</span>
            </span>
          )}
        </td>
        <td>{audio.assignedTo ? audio.assignedTo.username : <span className="muted nowrap">Not Assigned</span>}</td>
        <StageCell status={audio.translationStatus} />
        <StageCell status={audio.recordingStatus} />
        <td>
          {completion ? (
            <StatusBadge status={audio.isComplete ? "Completed" : "Pending"} label={completion} />
          ) : (
            <span className="muted">N/A</span>
          )}
        </td>
        <td>
          {audio.hasTranscript ? (
            <ViewTranscriptDialog audioId={audio.id} filename={audio.filename} onReplaced={refresh} />
          ) : (
            <UploadTranscriptDialog audioId={audio.id} filename={audio.filename} onUploaded={refresh} />
          )}
        </td>
        <td>
          <div className="row row-tight audio-row-actions">
            {audio.assignedTo ? (
              <ReassignDialog
                audioId={audio.id}
                filename={audio.filename}
                assignee={audio.assignedTo}
                staff={staff.data ?? []}
                onReassigned={refresh}
              />
            ) : null}
            <ParticipantLinkDialog audio={audio} onLinked={refresh} />
            <AudioLanguagesDialog audio={audio} programme={programme} onSaved={refresh} />
            <DeleteAudioDialog audioId={audio.id} filename={audio.filename} onDeleted={refresh} />
          </div>
        </td>
      </tr>
    );
  }

  return (
    <>
      <div className="row management-toolbar">
        <CategoryToggle
          value={category}
          onChange={(next) => {
            setCategory(next);
            setPage(1);
          }}
        />
      </div>
      <div className="table-wrap">
        <table className="table">
          <thead>
            <tr>
              {COLUMNS.map((column) => (
                <th key={column}>{column}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {audios.isPending ? (
              <tr>
                <td colSpan={COLUMNS.length} className="empty-state" role="status">
                  <span className="spinner" aria-hidden="true" /> Loading audios…
                </td>
              </tr>
            ) : audios.isError ? (
              <tr>
                <td colSpan={COLUMNS.length} className="empty-state" role="alert">
                  Failed to load {category} audios: {errorMessage(audios.error)}
                </td>
              </tr>
            ) : rows.length === 0 ? (
              <tr>
                <td colSpan={COLUMNS.length} className="empty-state">
                  No audios yet
                </td>
              </tr>
            ) : (
              rows.map(row)
            )}
          </tbody>
        </table>
      </div>
      <Pagination page={page} totalPages={audios.data?.totalPages ?? 0} onPageChange={setPage} />
    </>
  );
}
