import { NavLink } from "react-router";
import { paths } from "#web/config/paths";

const ENTRIES = [
  { to: paths.upload, label: "Upload" },
  { to: paths.createTasks, label: "Create Tasks" },
  { to: paths.manageAudios, label: "Manage Audios" },
  { to: paths.participants, label: "Participants" },
  { to: paths.translationAdmin, label: "Translation" },
  { to: paths.exports, label: "Export" },
  { to: paths.backups, label: "Backups" },
  { to: paths.webhooks, label: "Webhooks" },
] as const;

/**
 * The management side menu shown inside the management pages (SPEC §2.2), with 'Participants'
 * (decision 024), 'Translation' (languages, glossary and memory, decision 035), 'Export'
 * (dataset export, decision 019), 'Backups' (decision 027) and 'Webhooks' (decision 037) after the
 * spec's three entries.
 * The entry of the current path (case-insensitive; for Participants, a participant's page too)
 * carries aria-current="page".
 */
export function ManagementMenu() {
  return (
    <nav className="management-menu" aria-label="Management">
      {ENTRIES.map((entry) => (
        // A participant's page (under /management/participants/) keeps 'Participants' current.
        <NavLink key={entry.to} to={entry.to} end={entry.to !== paths.participants} className="management-menu-link">
          {entry.label}
        </NavLink>
      ))}
    </nav>
  );
}
