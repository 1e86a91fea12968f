import { useCallback, useRef } from "react";
import { Outlet } from "react-router";
import "#web/styles/shell.css";
import { LiveEvents } from "#web/features/live/components/live-events";
import { SessionRenewal } from "#web/features/auth/components/session-renewal";
import { NotificationBell } from "#web/features/notifications/components/notification-bell";
import { SearchDialog } from "#web/features/search/components/search-dialog";
import { Header } from "#web/features/shell/components/header";
import { Sidebar } from "#web/features/shell/components/sidebar";
import { useSidebarState } from "#web/features/shell/hooks/use-sidebar-state";
import { ConfirmIdentityDialog } from "#web/features/sessions/components/confirm-identity-dialog";
import { EnrolmentRedirect } from "#web/features/sessions/components/enrolment-redirect";

/**
 * The signed-in shell: sidebar, header and the routed page (SPEC §2.2, §2.3), kept live by
 * LiveEvents and signed in by SessionRenewal while it is used; asks to confirm who the person is
 * before sensitive actions and sends an admin without a second factor to enrolment (decision 038).
 */
export function AppLayout() {
  const sidebar = useSidebarState();
  const toggleRef = useRef<HTMLButtonElement>(null);
  const { setOpen } = sidebar;

  // Escape closes the slid-in sidebar and returns focus to the toggle that opened it.
  const closeOnEscape = useCallback(() => {
    setOpen(false);
    toggleRef.current?.focus();
  }, [setOpen]);

  return (
    <div className="shell">
      <LiveEvents />
      <SessionRenewal />
      <EnrolmentRedirect />
      <ConfirmIdentityDialog />
      <a href="#main-content" className="shell-skip-link">
        Skip to content
      </a>
      <Sidebar state={sidebar} onEscape={closeOnEscape} />
      <div className="shell-body">
        <Header state={sidebar} toggleRef={toggleRef} search={<SearchDialog />} bell={<NotificationBell />} />
        <main id="main-content" className="shell-main" tabIndex={-1}>
          <Outlet />
        </main>
      </div>
    </div>
  );
}
