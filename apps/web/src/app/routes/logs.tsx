import { LogsPage } from "#web/features/logs/components/logs-page";

/** /log/log-listing: the Logs page (Admin; SPEC §2.1). */
export function Component() {
  return <LogsPage />;
}
