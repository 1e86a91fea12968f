import { useEffect, useRef, useState, type FormEvent } from "react";
import { useQuery } from "@tanstack/react-query";
import { Dialog } from "radix-ui";
import { toast } from "sonner";
import { Field } from "#web/components/field";
import { onIdentityPrompt } from "#web/lib/identity-prompts";
import { readSession, writeSession } from "#web/lib/session";
import { errorMessage, useTRPC, useTRPCClient } from "#web/lib/trpc";
import { assertPasskey, wasCancelled } from "#web/lib/passkey-ceremony";

/**
 * Decision 038, re-authentication before sensitive actions: opens whenever the server answers
 * REAUTH_REQUIRED (exporting the dataset, downloading a consent document or a backup, creating an
 * admin, a webhook or an admin's API token, changing a role, after 10 minutes). The person proves
 * who they are with a passkey, a code from their authenticator app (or a recovery code), or, for an
 * account with neither, their password; the new token is stored and they do the action again.
 * Focus returns to the control last used before it opened.
 */
export function ConfirmIdentityDialog() {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const [open, setOpen] = useState(false);
  const [secret, setSecret] = useState("");
  const [error, setError] = useState("");
  const [pending, setPending] = useState(false);
  // The control the person last used: the refused action's button is often disabled while its
  // request runs (so the page's focus is on the body when the refusal arrives), and focus goes back to it.
  const lastFocused = useRef<HTMLElement | null>(null);
  const returnFocus = useRef<HTMLElement | null>(null);
  useEffect(() => {
    const remember = (event: FocusEvent) => {
      const target = event.target;
      if (target instanceof HTMLElement && !target.closest("[role=dialog]")) lastFocused.current = target;
    };
    document.addEventListener("focusin", remember);
    return () => document.removeEventListener("focusin", remember);
  }, []);
  useEffect(
    () =>
      onIdentityPrompt((prompt) => {
        if (prompt !== "confirm-identity") return;
        returnFocus.current = lastFocused.current;
        setSecret("");
        setError("");
        setOpen(true);
      }),
    [],
  );
  const totp = useQuery({ ...trpc.totp.status.queryOptions(), enabled: open });
  const passkeys = useQuery({ ...trpc.passkeys.list.queryOptions(), enabled: open });
  const hasTotp = totp.data?.enrolled === true;
  const hasPasskey = (passkeys.data?.passkeys.length ?? 0) > 0;
  const loading = open && (totp.isPending || passkeys.isPending);

  const confirmed = (token: string) => {
    const session = readSession();
    if (session) writeSession({ ...session, token });
    setOpen(false);
    toast.success("Confirmed. Do it again now: it is allowed for the next 10 minutes.");
  };

  const run = async (proof: () => Promise<{ token: string }>) => {
    setPending(true);
    setError("");
    try {
      confirmed((await proof()).token);
    } catch (failure) {
      setError(wasCancelled(failure) ? "The passkey was not used. Try again, or use a code." : errorMessage(failure));
    } finally {
      setPending(false);
    }
  };

  const withPasskey = () =>
    run(async () => {
      const options = await client.sessions.passkeyChallenge.mutate();
      const passkey = await assertPasskey(options);
      return client.sessions.confirmIdentity.mutate({ passkey });
    });

  const withSecret = (event: FormEvent) => {
    event.preventDefault();
    if (secret.trim() === "") {
      setError(hasTotp ? "Enter a code." : "Enter your password.");
      return;
    }
    void run(() => client.sessions.confirmIdentity.mutate(hasTotp ? { code: secret.trim() } : { password: secret }));
  };

  return (
    <Dialog.Root open={open} onOpenChange={(next) => !pending && setOpen(next)}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content
          className="dialog-content stack"
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            returnFocus.current?.focus();
          }}
        >
          <Dialog.Title className="dialog-title">Confirm it&apos;s you</Dialog.Title>
          <Dialog.Description className="muted">
            This action protects the programme&apos;s data, so it asks again when you last confirmed more than 10
            minutes ago.
          </Dialog.Description>
          {loading ? (
            <p role="status">Loading…</p>
          ) : (
            <>
              {hasPasskey && (
                <button type="button" className="btn btn-primary" disabled={pending} onClick={() => void withPasskey()}>
                  {pending ? <span className="spinner" aria-hidden="true" /> : null}
                  Use your passkey
                </button>
              )}
              {(hasTotp || !hasPasskey) && (
                <form className="stack" onSubmit={withSecret} noValidate>
                  <Field
                    label={hasTotp ? "Code from your authenticator app, or a recovery code" : "Your password"}
                    error={error}
                  >
                    {(control) => (
                      <input
                        {...control}
                        className="input"
                        type={hasTotp ? "text" : "password"}
                        autoComplete={hasTotp ? "one-time-code" : "current-password"}
                        inputMode={hasTotp ? "numeric" : undefined}
                        value={secret}
                        onChange={(event) => setSecret(event.target.value)}
                      />
                    )}
                  </Field>
                  <button type="submit" className="btn" disabled={pending}>
                    Confirm
                  </button>
                </form>
              )}
            </>
          )}
          {error && hasPasskey && !hasTotp && (
            <p role="alert" className="field-error">
              {error}
            </p>
          )}
          <div className="dialog-actions">
            <Dialog.Close asChild>
              <button type="button" className="btn" disabled={pending}>
                Cancel
              </button>
            </Dialog.Close>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
