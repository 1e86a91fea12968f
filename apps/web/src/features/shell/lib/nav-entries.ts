import type { Session } from "#web/lib/session";
import { paths } from "#web/config/paths";

/** The icon names the sidebar draws (see icons.tsx). */
export type NavIcon = "dashboard" | "tasks" | "recordings" | "management" | "submissions" | "accounts";

interface NavBase {
  id: string;
  label: string;
  icon: NavIcon;
  /** SPEC §2.2 active rule, given the lower-cased path. */
  isActive: (path: string) => boolean;
}

/** A single link in the sidebar. */
export interface NavLinkEntry extends NavBase {
  kind: "link";
  to: string;
}

/** A group header that expands to its links. */
export interface NavGroupEntry extends NavBase {
  kind: "group";
  links: { label: string; to: string }[];
}

export type NavEntry = NavLinkEntry | NavGroupEntry;

const under = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`);

/**
 * The sidebar entries for a role, in order, with their active rules (SPEC §2.2).
 * Any other role, or no user, gets no entries.
 */
export function navEntries(role: Session["role"] | undefined): NavEntry[] {
  if (role !== "Admin" && role !== "Staff") return [];
  const admin = role === "Admin";
  const entries: (NavEntry | false)[] = [
    admin && {
      kind: "group",
      id: "dashboard",
      label: "Dashboard",
      icon: "dashboard",
      isActive: (p) => p === "/" || p.includes("dashboard"),
      links: [{ label: "Quick statistics", to: paths.home }],
    },
    {
      kind: "link",
      id: "tasks",
      label: admin ? "All Tasks" : "My Tasks",
      icon: "tasks",
      to: paths.tasks,
      isActive: (p) => under(p, paths.tasks.toLowerCase()) || p.startsWith("/audiomanagement/"),
    },
    {
      kind: "link",
      id: "recordings",
      label: admin ? "All Recordings" : "My Recordings",
      icon: "recordings",
      to: paths.recordings,
      isActive: (p) => under(p, paths.recordings.toLowerCase()),
    },
    admin && {
      kind: "link",
      id: "management",
      label: "Management",
      icon: "management",
      to: paths.upload,
      isActive: (p) => p.startsWith("/management"),
    },
    {
      kind: "group",
      id: "submissions",
      label: "Submissions",
      icon: "submissions",
      isActive: (p) => p.includes("submission"),
      links: [{ label: admin ? "All submissions" : "My submissions", to: paths.submissions }],
    },
    admin && {
      kind: "group",
      id: "accounts",
      label: "Accounts",
      icon: "accounts",
      isActive: (p) => p.includes("accounts"),
      links: [{ label: "User accounts", to: paths.accounts }],
    },
  ];
  return entries.filter((e): e is NavEntry => e !== false);
}
