import { Link, Navigate } from "react-router";
import { useSession } from "../../hooks/use-session";
import { paths } from "../../config/paths";

/** SPEC §2.6: 'Good morning' before 12, 'Good afternoon' before 18, otherwise 'Good evening'. */
function greeting(hour: number): string {
  if (hour < 12) return "Good morning";
  if (hour < 18) return "Good afternoon";
  return "Good evening";
}

const SHORTCUTS = [
  { to: paths.upload, title: "Upload audios", text: "Add Control or Dementia audios, one by one or as a zip." },
  { to: paths.createTasks, title: "Create Tasks", text: "Assign unassigned audios to staff members." },
  { to: paths.manageAudios, title: "Manage Audios", text: "Follow translation and recording status per audio." },
  { to: paths.tasks, title: "Review work", text: "Open a task to review its transcript and recording." },
];

/** / (SPEC §2.1, §2.6): Admin home with greeting and welcome banner; Staff go to /Audios. */
export function Component() {
  const session = useSession();
  if (!session) return null;
  if (session.role !== "Admin") return <Navigate to={paths.tasks} replace />;

  return (
    <section className="page">
      <h1 className="page-title">
        {greeting(new Date().getHours())}, {session.username}
      </h1>
      <div className="home-welcome">
        <p className="home-welcome-title">Welcome to the Tafsiri audio translation programme</p>
        <p className="home-welcome-text">
          Upload audios, assign them to staff, and review the translated transcripts and recordings they send back.
        </p>
      </div>
      <h2 className="home-section-title">Quick links</h2>
      <div className="home-shortcuts">
        {SHORTCUTS.map((s) => (
          <Link key={s.to} to={s.to} className="card home-shortcut">
            <span className="home-shortcut-title">{s.title}</span>
            <span className="home-shortcut-text muted">{s.text}</span>
          </Link>
        ))}
      </div>
      <p className="muted">Statistics on users, tasks and submissions are not available yet.</p>
    </section>
  );
}
