import { useEffect, useState, type ReactNode } from "react";
import { QueryClientProvider } from "@tanstack/react-query";
import { makeQueryClient, makeTrpcClient, TRPCProvider } from "#web/lib/trpc";
import { watchConnection } from "#web/lib/connection";
import { AppToaster } from "#web/components/app-toaster";
import { ConnectionBanner } from "#web/components/connection-banner";
import { LiveAnnouncer } from "#web/components/live-announcer";

/**
 * Query cache, tRPC client, toasts and screen-reader announcements for the whole app, and the
 * connection banner above every screen, signed in or not (decision 021: lib/connection follows
 * the connection and holds mutations while it is lost).
 */
export function AppProvider({ children }: { children: ReactNode }) {
  const [queryClient] = useState(makeQueryClient);
  const [trpcClient] = useState(makeTrpcClient);
  useEffect(() => watchConnection(), []);
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        <ConnectionBanner />
        {children}
        <AppToaster />
        <LiveAnnouncer />
      </TRPCProvider>
    </QueryClientProvider>
  );
}
