import type { ReactNode, Ref } from "react";
import { MenuIcon } from "./icons";
import { SIDEBAR_ID } from "./sidebar";
import { UserMenu } from "./user-menu";
import type { SidebarState } from "#web/features/shell/hooks/use-sidebar-state";

/**
 * The header (SPEC §2.3): sidebar toggle, `search` (the search button and its dialog), `bell` (the
 * notifications bell) and the user menu. Search and bell are other features, composed by the app.
 */
export function Header({
  state,
  toggleRef,
  search,
  bell,
}: {
  state: SidebarState;
  toggleRef: Ref<HTMLButtonElement>;
  search?: ReactNode;
  bell?: ReactNode;
}) {
  return (
    <header className="shell-header">
      <button
        ref={toggleRef}
        type="button"
        className="shell-icon-button"
        aria-label="Toggle sidebar"
        aria-controls={SIDEBAR_ID}
        aria-expanded={state.small ? state.open : state.expanded}
        onClick={state.toggle}
      >
        <MenuIcon />
      </button>
      <span className="shell-header-title" aria-hidden="true">
        Tafsiri
      </span>
      {search}
      <div className="shell-header-end">
        {bell}
        <UserMenu />
      </div>
    </header>
  );
}
