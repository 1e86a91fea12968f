import { useSyncExternalStore } from "react";
import { connectionStatus, subscribeConnection, type ConnectionStatus } from "#web/lib/connection";

/**
 * The connection to the server as it is now, re-rendering when it changes (decision 021,
 * SPEC §7.3): 'disconnected' while it is lost, 'reconnected' for a few seconds once it is back.
 */
export function useConnectionStatus(): ConnectionStatus {
  return useSyncExternalStore(subscribeConnection, connectionStatus);
}
