import { useEffect, useRef, useState, type MouseEvent } from "react";
import { Link, useLocation } from "react-router";
import { useSession } from "#web/hooks/use-session";
import { navEntries, type NavGroupEntry, type NavLinkEntry } from "#web/features/shell/lib/nav-entries";
import { ChevronIcon, LogoMark, NavEntryIcon } from "./icons";
import type { SidebarState } from "#web/features/shell/hooks/use-sidebar-state";
import { paths } from "#web/config/paths";

export const SIDEBAR_ID = "app-sidebar";

/**
 * The sidebar (SPEC §2.2): product title linking to /, the role's entries with their active
 * rules (aria-current="page"), collapsible groups, and a footer credit on very wide screens.
 * On small screens it slides in and closes on an outside click, Escape or choosing a link.
 */
export function Sidebar({ state, onEscape }: { state: SidebarState; onEscape: () => void }) {
  const session = useSession();
  const path = useLocation().pathname.toLowerCase();
  const [groupOpen, setGroupOpen] = useState<Record<string, boolean>>({});
  const asideRef = useRef<HTMLElement>(null);
  const { small, open, expanded, setOpen, setExpanded } = state;
  const collapsed = !small && !expanded;
  const hidden = small && !open;

  useEffect(() => {
    if (!small || !open) return;
    asideRef.current?.querySelector<HTMLElement>("a, button")?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") onEscape();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [small, open, onEscape]);

  const closeOnLink = (e: MouseEvent) => {
    if (small && (e.target as HTMLElement).closest("a")) setOpen(false);
  };

  const toggleGroup = (group: NavGroupEntry, isOpen: boolean) => {
    if (collapsed) {
      // SPEC §2.2: a group header clicked while collapsed expands the sidebar first.
      setExpanded(true);
      setGroupOpen((g) => ({ ...g, [group.id]: true }));
    } else {
      setGroupOpen((g) => ({ ...g, [group.id]: !isOpen }));
    }
  };

  return (
    <>
      {small && open && <div className="shell-backdrop" aria-hidden="true" onClick={() => setOpen(false)} />}
      <aside
        id={SIDEBAR_ID}
        ref={asideRef}
        className="shell-sidebar"
        data-collapsed={collapsed}
        data-open={open}
        inert={hidden}
        aria-label="Sidebar"
        onClick={closeOnLink}
      >
        <Link to={paths.home} className="shell-brand" title={collapsed ? "Tafsiri" : undefined}>
          <LogoMark />
          <span className="shell-label shell-brand-text">Tafsiri</span>
        </Link>
        <nav className="shell-nav" aria-label="Main">
          <ul className="shell-nav-list">
            {navEntries(session?.role).map((entry) =>
              entry.kind === "link" ? (
                <NavItemLink key={entry.id} entry={entry} active={entry.isActive(path)} collapsed={collapsed} />
              ) : (
                <NavItemGroup
                  key={entry.id}
                  entry={entry}
                  active={entry.isActive(path)}
                  collapsed={collapsed}
                  open={!collapsed && (groupOpen[entry.id] ?? entry.isActive(path))}
                  onToggle={toggleGroup}
                />
              ),
            )}
          </ul>
        </nav>
        <p className="shell-credit">Developed by the Tafsiri development team</p>
      </aside>
    </>
  );
}

function NavItemLink({ entry, active, collapsed }: { entry: NavLinkEntry; active: boolean; collapsed: boolean }) {
  return (
    <li>
      <Link
        to={entry.to}
        className="shell-nav-item"
        data-active={active}
        aria-current={active ? "page" : undefined}
        title={collapsed ? entry.label : undefined}
      >
        <NavEntryIcon name={entry.icon} />
        <span className="shell-label">{entry.label}</span>
      </Link>
    </li>
  );
}

interface GroupProps {
  entry: NavGroupEntry;
  active: boolean;
  collapsed: boolean;
  open: boolean;
  onToggle: (group: NavGroupEntry, isOpen: boolean) => void;
}

function NavItemGroup({ entry, active, collapsed, open, onToggle }: GroupProps) {
  const listId = `nav-group-${entry.id}`;
  return (
    <li>
      <button
        type="button"
        className="shell-nav-item"
        data-active={active}
        aria-expanded={open}
        aria-controls={open ? listId : undefined}
        title={collapsed ? entry.label : undefined}
        onClick={() => onToggle(entry, open)}
      >
        <NavEntryIcon name={entry.icon} />
        <span className="shell-label">{entry.label}</span>
        <span className="shell-chevron" data-open={open}>
          <ChevronIcon />
        </span>
      </button>
      {open && (
        <ul id={listId} className="shell-subnav">
          {entry.links.map((link) => (
            <li key={link.to}>
              <Link
                to={link.to}
                className="shell-subnav-item"
                data-active={active}
                aria-current={active ? "page" : undefined}
              >
                {link.label}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}
