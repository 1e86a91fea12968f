import { NavLink } from "react-router";
import { paths } from "#web/config/paths";

const linkClass = ({ isActive }: { isActive: boolean }) => `audio-subnav-link${isActive ? " is-active" : ""}`;

/**
 * The audio-management sub-navigation (SPEC §2.2): Audio, Translated Transcript, Translated Audio,
 * Give Feedback under 'Comments', and Recommend Audio. The active entry has aria-current="page".
 */
export function AudioSubNav() {
  return (
    <nav className="audio-subnav" aria-label="Audio management">
      <ul>
        <li>
          <NavLink to={paths.audio} className={linkClass}>
            Audio
          </NavLink>
        </li>
        <li>
          <NavLink to={paths.transcript} className={linkClass}>
            Translated Transcript
          </NavLink>
        </li>
        <li>
          <NavLink to={paths.translatedAudio} className={linkClass}>
            Translated Audio
          </NavLink>
        </li>
      </ul>
      <p className="audio-subnav-heading" id="audio-subnav-comments">
        Comments
      </p>
      <ul aria-labelledby="audio-subnav-comments">
        <li>
          <NavLink to={paths.feedback} className={linkClass}>
            Give Feedback
          </NavLink>
        </li>
        <li>
          <NavLink to={paths.recommend} className={linkClass}>
            Recommend Audio
          </NavLink>
        </li>
      </ul>
    </nav>
  );
}
