import { LogsPage } from "../../features/logs/components/logs-page";

/** /log/log-listing: the Logs page (Admin; issue 9 Build 5). */
export function Component() {
  return <LogsPage />;
}
