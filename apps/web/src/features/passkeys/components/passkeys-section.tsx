import { useRef, useState, type FormEvent, type RefObject } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { browserSupportsWebAuthn } from "@simplewebauthn/browser";
import { PASSKEY_NAME_MAX_LENGTH, PASSKEY_NAME_REQUIRED, PASSKEY_NAME_TOO_LONG } from "@tafsiri/domain";
import { ConfirmDialog } from "#web/components/confirm-dialog";
import { Field } from "#web/components/field";
import type { PasskeyView } from "#web/lib/api-types";
import { errorMessage, isConnectionError, isServerRefusal, useTRPC, useTRPCClient } from "#web/lib/trpc";
import { ceremonyMessage, createPasskey, wasCancelled } from "#web/lib/passkey-ceremony";
import "./passkeys.css";

/** A time as the list shows it ('7 Dec 2026, 14:05'), or 'Never'. */
function when(iso: string | null): string {
  if (!iso) return "Never";
  return new Date(iso).toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short" });
}

/** The problem with a passkey's name, or undefined (empty allowed when `optional`: the server names it). */
function nameProblem(name: string, optional: boolean): string | undefined {
  const trimmed = name.trim();
  if (trimmed === "") return optional ? undefined : PASSKEY_NAME_REQUIRED;
  return trimmed.length > PASSKEY_NAME_MAX_LENGTH ? PASSKEY_NAME_TOO_LONG : undefined;
}

/**
 * 'Add a passkey': an optional name, then the browser's prompt (startRegistration) and the
 * server's check. A closed prompt says so beside the button; the server's refusals are toasts.
 */
function AddPasskeyForm({ addButton, onAdded }: { addButton: RefObject<HTMLButtonElement | null>; onAdded(): void }) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const [name, setName] = useState("");
  const [error, setError] = useState<string | undefined>();
  const [note, setNote] = useState("");
  const register = useMutation(
    trpc.passkeys.register.mutationOptions({
      onSuccess: (out) => {
        toast.success(out.message);
        setName("");
        onAdded();
      },
      onError: (failure) => toast.error(errorMessage(failure)),
    }),
  );
  const [asking, setAsking] = useState(false);
  const pending = asking || register.isPending;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = nameProblem(name, true);
    setError(problem);
    setNote("");
    if (problem) return;
    setAsking(true);
    try {
      const options = await client.passkeys.registrationOptions.mutate();
      const response = await createPasskey(options);
      register.mutate({ name: name.trim(), response });
    } catch (failure) {
      if (isServerRefusal(failure) || isConnectionError(failure)) toast.error(errorMessage(failure));
      else setNote(wasCancelled(failure) ? "Passkey request cancelled. Nothing was added." : ceremonyMessage(failure));
    } finally {
      setAsking(false);
    }
  };

  return (
    <form className="stack passkey-add" onSubmit={(event) => void submit(event)} noValidate>
      <Field
        label="Name of the new passkey"
        hint="Where it lives, e.g. 'Work laptop'. Left empty, it is called 'Passkey' and a number."
        error={error}
      >
        {(props) => (
          <input
            {...props}
            className="input passkey-name"
            value={name}
            maxLength={PASSKEY_NAME_MAX_LENGTH + 10}
            onChange={(event) => {
              setName(event.target.value);
              if (error) setError(undefined);
            }}
          />
        )}
      </Field>
      <div className="row">
        <button ref={addButton} type="submit" className="btn btn-primary" disabled={pending}>
          {pending && <span className="spinner" aria-hidden="true" />}
          Add a passkey
        </button>
        <p className="field-hint passkey-note" role="status">
          {pending ? "Follow your browser's prompt…" : note}
        </p>
      </div>
    </form>
  );
}

/** 'Rename': a dialog with the name, checked before it is sent. */
function RenameButton({ passkey }: { passkey: PasskeyView }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState(passkey.name);
  const [error, setError] = useState<string | undefined>();
  const rename = useMutation(
    trpc.passkeys.rename.mutationOptions({
      onSuccess: (out) => {
        toast.success(out.message);
        setOpen(false);
        void queryClient.invalidateQueries({ queryKey: trpc.passkeys.pathKey() });
      },
      onError: (failure) => setError(errorMessage(failure)),
    }),
  );
  const confirm = () => {
    const problem = nameProblem(name, false);
    setError(problem);
    if (!problem) rename.mutate({ passkeyId: passkey.id, name: name.trim() });
  };
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        setName(passkey.name);
        setError(undefined);
      }}
      trigger={
        <button type="button" className="btn btn-sm">
          Rename<span className="sr-only"> {passkey.name}</span>
        </button>
      }
      title={`Rename '${passkey.name}'`}
      description="A name tells your passkeys apart, e.g. the device it lives on."
      confirmLabel="Rename"
      confirmClassName="btn btn-primary"
      pending={rename.isPending}
      onConfirm={confirm}
    >
      <Field label="New name" error={error}>
        {(props) => (
          <input
            {...props}
            className="input"
            value={name}
            maxLength={PASSKEY_NAME_MAX_LENGTH + 10}
            onChange={(event) => {
              setName(event.target.value);
              if (error) setError(undefined);
            }}
            onKeyDown={(event) => {
              if (event.key === "Enter") {
                event.preventDefault();
                confirm();
              }
            }}
          />
        )}
      </Field>
    </ConfirmDialog>
  );
}

/** 'Remove', behind a confirmation; afterwards focus goes to 'Add a passkey' (the row is gone). */
function RemoveButton({ passkey, onRemoved }: { passkey: PasskeyView; onRemoved(): void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const remove = useMutation(
    trpc.passkeys.remove.mutationOptions({
      onSuccess: async (out) => {
        toast.success(out.message);
        await queryClient.invalidateQueries({ queryKey: trpc.passkeys.pathKey() });
        setOpen(false);
        onRemoved();
      },
      onError: (failure) => toast.error(errorMessage(failure)),
    }),
  );
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={setOpen}
      trigger={
        <button type="button" className="btn btn-sm btn-danger-outline">
          Remove<span className="sr-only"> {passkey.name}</span>
        </button>
      }
      title={`Remove '${passkey.name}'?`}
      description="You will no longer be able to sign in with it. Remove it from the device too, in its passkey or password settings."
      confirmLabel="Remove"
      pending={remove.isPending}
      onConfirm={() => remove.mutate({ passkeyId: passkey.id })}
    />
  );
}

/**
 * Decision 038, the Profile's 'Passkeys' section: the person's passkeys (name, created, last used;
 * Rename, Remove behind a confirmation) and 'Add a passkey' (named, made by the browser's prompt).
 * Loading, empty and error states; a browser without WebAuthn is told so.
 */
export function PasskeysSection() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.passkeys.list.queryOptions());
  const addButton = useRef<HTMLButtonElement>(null);
  const supported = browserSupportsWebAuthn();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: trpc.passkeys.pathKey() });
  // The Remove button's row is gone: focus moves on to 'Add a passkey' once the dialog has closed.
  const focusAdd = () => requestAnimationFrame(() => addButton.current?.focus());

  return (
    <section className="card stack passkeys-section" aria-labelledby="passkeys-title">
      <h2 id="passkeys-title" className="panel-title">
        Passkeys
      </h2>
      <p className="muted">
        A passkey signs you in with your device's screen lock or a security key instead of your password, and cannot be
        used on another site.
      </p>
      {list.isPending ? (
        <p className="muted" role="status">
          <span className="spinner" aria-hidden="true" /> Loading your passkeys…
        </p>
      ) : list.isError ? (
        <p role="alert">Your passkeys could not be loaded.</p>
      ) : list.data.passkeys.length === 0 ? (
        <p className="muted">You have no passkeys yet.</p>
      ) : (
        <div className="table-wrap" role="region" aria-label="Your passkeys" tabIndex={0}>
          <table className="table">
            <caption className="sr-only">Your passkeys</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.data.passkeys.map((passkey) => (
                <tr key={passkey.id}>
                  <td>{passkey.name}</td>
                  <td>{when(passkey.createdAt)}</td>
                  <td>{when(passkey.lastUsedAt)}</td>
                  <td>
                    <div className="row passkey-actions">
                      <RenameButton passkey={passkey} />
                      <RemoveButton passkey={passkey} onRemoved={focusAdd} />
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {supported ? (
        <AddPasskeyForm addButton={addButton} onAdded={refresh} />
      ) : (
        <p className="muted">This browser cannot make passkeys. Use a recent Chrome, Edge, Firefox or Safari.</p>
      )}
    </section>
  );
}
