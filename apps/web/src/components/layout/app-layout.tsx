import { Outlet } from "react-router";

/** The signed-in shell: sidebar, header and the routed page (SPEC §2.2, §2.3). */
export function AppLayout() {
  return (
    <div className="app-shell">
      <main className="app-main">
        <Outlet />
      </main>
    </div>
  );
}
