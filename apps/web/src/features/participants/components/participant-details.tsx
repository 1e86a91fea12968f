import type { ReactNode } from "react";
import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { Duration } from "@tafsiri/ui/duration";
import { SCORE_INSTRUMENTS, type ScoreInstrument } from "@tafsiri/domain";
import { paths } from "#web/config/paths";
import { errorMessage, useTRPC } from "#web/lib/trpc";
import { useOpenAudio } from "#web/hooks/use-open-audio";
import type { Participant } from "#web/features/participants/lib/participant-types";
import { ageText, sexText } from "#web/features/participants/lib/participant-words";
import { useParticipant } from "#web/features/participants/hooks/use-participant";
import { ConsentBadge } from "./consent-badge";
import { EditParticipantButton } from "./edit-participant-button";
import "#web/features/participants/participants.css";

/** How the age was given, for the summary: the date of birth, or the age in years and months on its day. */
function ageSource(p: Participant): string {
  if (p.birthDate) return `born ${p.birthDate}`;
  if (p.ageMonths !== null) return `${ageText(p.ageMonths)}${p.ageRecordedOn ? ` on ${p.ageRecordedOn}` : ""}`;
  return "not recorded";
}

/** The read-only summary of a participant's fields, with 'Edit' opening the side panel. */
function Summary({ participant: p }: { participant: Participant }) {
  const scores = p.scores.map((s) => {
    const label = SCORE_INSTRUMENTS[s.instrument as ScoreInstrument]?.label ?? s.instrument;
    return `${label} ${s.score}${s.takenOn ? ` (${s.takenOn})` : ""}`;
  });
  const entries: Array<[string, ReactNode]> = [
    ["Group", <span className={`category-chip category-${p.group.toLowerCase()}`}>{p.group}</span>],
    ["Sex", sexText(p.sex)],
    ["Age today", ageText(p.ageMonthsToday)],
    ["Age given as", ageSource(p)],
    ["Years of education", p.educationYears ?? "—"],
    ["Languages", p.languages.length ? p.languages.join(", ") : "—"],
    ["Cognitive scores", scores.length ? scores.join("; ") : "—"],
    ["Consent", <ConsentBadge status={p.consentStatus} day={p.consentDate} />],
    ["Consent document", p.consentDocumentName ?? "None"],
    ["Notes", p.notes ? <span className="participant-notes">{p.notes}</span> : "—"],
  ];
  return (
    <section className="card stack" aria-labelledby="participant-fields-title">
      <div className="row panel-header">
        <h2 className="section-title" id="participant-fields-title">
          Details
        </h2>
        <EditParticipantButton participant={p}>
          Edit <span className="sr-only">{p.code}</span>
        </EditParticipantButton>
      </div>
      <dl className="participant-summary">
        {entries.map(([term, value]) => (
          <div key={term} className="participant-summary-item">
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/** The recordings linked to the participant: file name (opening the audio's screen), category, session day, duration. */
function Recordings({ participantId }: { participantId: string }) {
  const trpc = useTRPC();
  const openAudio = useOpenAudio();
  const audios = useQuery(trpc.participants.audios.queryOptions({ participantId }));
  const columns = ["Audio", "Category", "Session date", "Duration"];
  let body;
  if (audios.isPending)
    body = (
      <td colSpan={columns.length} className="empty-state" role="status">
        <span className="spinner" aria-hidden="true" /> Loading recordings…
      </td>
    );
  else if (audios.isError)
    body = (
      <td colSpan={columns.length} className="empty-state" role="alert">
        The recordings could not be loaded: {errorMessage(audios.error)}
      </td>
    );
  else if (audios.data.length === 0)
    body = (
      <td colSpan={columns.length} className="empty-state">
        No recordings linked yet. Link them in Manage Audios, or name the participant when uploading.
      </td>
    );
  return (
    <section className="card stack" aria-labelledby="participant-audios-title">
      <h2 className="section-title" id="participant-audios-title">
        Recordings
      </h2>
      <div className="table-wrap">
        <table className="table participants-table" aria-labelledby="participant-audios-title">
          <thead>
            <tr>
              {columns.map((c) => (
                <th key={c} scope="col">
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {body ? (
              <tr>{body}</tr>
            ) : (
              audios.data?.map((a) => (
                <tr key={a.id}>
                  <th scope="row">
                    <button type="button" className="link-button" onClick={() => openAudio(a.id)}>
                      {a.filename}
                    </button>
                  </th>
                  <td>
                    <span className={`category-chip category-${a.category.toLowerCase()}`}>{a.category}</span>
                  </td>
                  <td>{a.sessionDate ? <time dateTime={a.sessionDate}>{a.sessionDate}</time> : "—"}</td>
                  <td>
                    <Duration seconds={a.durationSeconds} />
                  </td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/**
 * Decision 024, a participant's page (/management/participants/:participantId): their fields as a
 * read-only summary with 'Edit', and their linked recordings. 'Participant not found.' for an unknown id.
 */
export function ParticipantDetails({ participantId }: { participantId: string }) {
  const participant = useParticipant(participantId);
  return (
    <div className="stack">
      <p>
        <Link to={paths.participants}>← All participants</Link>
      </p>
      {participant.isPending ? (
        <p className="empty-state" role="status">
          <span className="spinner" aria-hidden="true" /> Loading participant…
        </p>
      ) : participant.isError ? (
        <p className="empty-state" role="alert">
          {errorMessage(participant.error)}
        </p>
      ) : (
        <>
          <Summary participant={participant.data} />
          <Recordings participantId={participantId} />
        </>
      )}
    </div>
  );
}
