import type { ReactNode } from "react";
import { Link } from "react-router";
import type { AudioDetail } from "#web/lib/api-types";
import { errorMessage } from "#web/lib/trpc";
import { useCurrentAudio } from "#web/features/audio/hooks/use-current-audio";
import { AudioSubNav } from "./audio-sub-nav";
import { LastOpenedBanner } from "./last-opened-banner";
import { paths } from "#web/config/paths";
import { isRefusal } from "#web/lib/query-failure";
import "#web/features/audio/audio.css";

export interface AudioManagementLayoutProps {
  /** The screen's name (e.g. 'Translated Transcript'), the heading while no audio is shown. */
  section: string;
  /** The screen's panel for the loaded audio. */
  children: (audio: AudioDetail) => ReactNode;
}

/**
 * The frame of the audiomanagement screens (SPEC §2.11–§2.15): the current audio's file name
 * as heading, the Admin's last-opened banner, the sub-navigation and the screen's panel.
 * Without a current audio it offers a way to the Tasks page; a failed load shows an error state.
 */
export function AudioManagementLayout({ section, children }: AudioManagementLayoutProps) {
  const { audioId, query } = useCurrentAudio();
  const audio = query.data;

  let body: ReactNode;
  if (!audioId) {
    body = (
      <div className="empty-state" data-testid="no-current-audio">
        <p>No audio selected.</p>
        <p>Open a task to work on its audio.</p>
        <Link className="btn btn-primary" to={paths.tasks}>
          Go to Tasks
        </Link>
      </div>
    );
  } else if (query.isPending) {
    body = (
      <p className="empty-state" role="status">
        <span className="spinner" aria-hidden="true" /> Loading audio…
      </p>
    );
  } else if (query.data === undefined || (query.isError && isRefusal(query.error))) {
    body = (
      <div className="empty-state" role="alert">
        <p>Error fetching audio details</p>
        <p className="muted">{errorMessage(query.error)}</p>
        <div className="row audio-error-actions">
          <button type="button" className="btn" onClick={() => void query.refetch()}>
            Retry
          </button>
          <Link className="btn" to={paths.tasks}>
            Go to Tasks
          </Link>
        </div>
      </div>
    );
  } else {
    body = children(query.data);
  }

  return (
    <section className="page audio-page">
      <h1 className="page-title audio-page-title">{audio ? audio.filename : section}</h1>
      {audio && <LastOpenedBanner lastOpened={audio.lastOpened} />}
      <div className="audio-layout">
        <AudioSubNav />
        <div className="audio-layout-panel">{body}</div>
      </div>
    </section>
  );
}
