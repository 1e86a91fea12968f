import { useEffect, useRef, useState, type FormEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import {
  normalizeSecondFactorCode,
  RECOVERY_CODE_COUNT,
  SECOND_FACTOR_MALFORMED_CODE,
  secondFactorCodeKind,
} from "@tafsiri/domain";
import { ConfirmDialog } from "#web/components/confirm-dialog";
import { Field } from "#web/components/field";
import { useSession } from "#web/hooks/use-session";
import { readSession, writeSession } from "#web/lib/session";
import { errorMessage, useTRPC } from "#web/lib/trpc";
import type { TotpStatus } from "#web/lib/api-types";
import { RecoveryCodes } from "./recovery-codes";
import "./second-factor.css";

/** What `totp.start` answers: the secret, its otpauth:// URI and the URI as a QR code (SVG). */
interface Enrolment {
  secret: string;
  uri: string;
  qrSvg: string;
}

/** A day as the section shows it ('7 Dec 2026'). */
function day(iso: string): string {
  return new Date(iso).toLocaleDateString("en-GB", { dateStyle: "medium" });
}

/** The 6-digit code the person typed, or the message saying what is wrong with it. */
function appCode(typed: string): { code: string } | { error: string } {
  const code = normalizeSecondFactorCode(typed);
  if (code === "") return { error: "Enter the 6-digit code your app shows." };
  if (secondFactorCodeKind(code) !== "totp") return { error: SECOND_FACTOR_MALFORMED_CODE };
  return { code };
}

/**
 * Step 2 of turning the app on: the QR code to scan, the key to type instead, and the app's code
 * that confirms it. Focus moves to its heading when it opens.
 */
function EnrolmentForm({
  enrolment,
  onConfirmed,
  onCancel,
}: {
  enrolment: Enrolment;
  onConfirmed(codes: string[]): void;
  onCancel(): void;
}) {
  const trpc = useTRPC();
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | undefined>();
  const heading = useRef<HTMLHeadingElement>(null);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const confirm = useMutation(trpc.totp.confirm.mutationOptions());
  const copyKey = () =>
    void navigator.clipboard.writeText(enrolment.secret).then(
      () => toast.success("Setup key copied."),
      () => toast.error("The setup key could not be copied. Select it and copy it by hand."),
    );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = appCode(code);
    if ("error" in checked) {
      setError(checked.error);
      input.current?.focus();
      return;
    }
    setError(undefined);
    confirm.mutate(
      { code: checked.code },
      {
        onSuccess: (out) => {
          // Decision 038: a session that signed in with a password alone now counts as password and code.
          const session = readSession();
          if (out.token && session) writeSession({ ...session, token: out.token });
          toast.success(out.message);
          onConfirmed(out.recoveryCodes);
        },
        onError: (failure) => {
          setError(errorMessage(failure));
          input.current?.focus();
        },
      },
    );
  };
  const qr = `data:image/svg+xml;base64,${btoa(enrolment.qrSvg)}`;
  return (
    <form className="stack totp-enrolment" onSubmit={submit} noValidate aria-labelledby="totp-enrolment-title">
      <h3 id="totp-enrolment-title" className="panel-title" tabIndex={-1} ref={heading}>
        Set up your authenticator app
      </h3>
      <ol className="totp-steps">
        <li>
          <p>Scan this QR code with an authenticator app (such as Aegis, Google Authenticator or 1Password).</p>
          <img
            className="totp-qr"
            src={qr}
            alt="QR code to scan with your authenticator app"
            width={200}
            height={200}
          />
        </li>
        <li>
          <Field label="Or type this setup key into the app" hint="Time-based, 6 digits, every 30 seconds.">
            {(props) => (
              <div className="row">
                <input {...props} className="input totp-secret" readOnly value={enrolment.secret} />
                <button type="button" className="btn" onClick={copyKey}>
                  Copy key
                </button>
              </div>
            )}
          </Field>
        </li>
        <li>
          <Field label="Code from the app" hint="The 6 digits the app shows now." error={error}>
            {(props) => (
              <input
                {...props}
                ref={input}
                className="input totp-code"
                autoComplete="one-time-code"
                inputMode="numeric"
                maxLength={8}
                value={code}
                onChange={(event) => {
                  setCode(event.target.value);
                  if (error) setError(undefined);
                }}
              />
            )}
          </Field>
        </li>
      </ol>
      <div className="row">
        <button type="submit" className="btn btn-primary" disabled={confirm.isPending}>
          {confirm.isPending && <span className="spinner" aria-hidden="true" />}
          Turn on
        </button>
        <button type="button" className="btn" onClick={onCancel} disabled={confirm.isPending}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** 'Make new recovery codes', behind a confirmation; the new codes go to `onCodes`. */
function RegenerateButton({ onCodes }: { onCodes(codes: string[]): void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const regenerate = useMutation(
    trpc.totp.regenerateRecoveryCodes.mutationOptions({
      onSuccess: (out) => {
        toast.success(out.message);
        setOpen(false);
        onCodes(out.recoveryCodes);
        void queryClient.invalidateQueries({ queryKey: trpc.totp.pathKey() });
      },
      onError: (failure) => toast.error(errorMessage(failure)),
    }),
  );
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={setOpen}
      trigger={
        <button type="button" className="btn">
          Make new recovery codes
        </button>
      }
      title="Make new recovery codes?"
      description={`You get ${RECOVERY_CODE_COUNT} new codes; the ones you have now stop working at once.`}
      confirmLabel="Make new codes"
      confirmClassName="btn btn-primary"
      pending={regenerate.isPending}
      onConfirm={() => regenerate.mutate()}
    />
  );
}

/** 'Turn off', behind a confirmation that asks for a code from the app (or the password instead). */
function TurnOffButton() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [withPassword, setWithPassword] = useState(false);
  const [value, setValue] = useState("");
  const [error, setError] = useState<string | undefined>();
  const disable = useMutation(
    trpc.totp.disable.mutationOptions({
      onSuccess: (out) => {
        toast.success(out.message);
        setOpen(false);
        void queryClient.invalidateQueries({ queryKey: trpc.totp.pathKey() });
      },
      onError: (failure) => setError(errorMessage(failure)),
    }),
  );
  const onOpenChange = (next: boolean) => {
    setOpen(next);
    setValue("");
    setError(undefined);
    setWithPassword(false);
  };
  const confirm = () => {
    if (withPassword) {
      if (value === "") return setError("Enter your password.");
      return disable.mutate({ password: value });
    }
    const code = normalizeSecondFactorCode(value);
    if (code === "") return setError("Enter a code from your authenticator app, or a recovery code.");
    if (secondFactorCodeKind(code) === null) return setError(SECOND_FACTOR_MALFORMED_CODE);
    disable.mutate({ code });
  };
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      trigger={
        <button type="button" className="btn btn-danger-outline">
          Turn off
        </button>
      }
      title="Turn off two-factor authentication?"
      description="Signing in will need only your password, and your recovery codes stop working."
      confirmLabel="Turn off"
      pending={disable.isPending}
      onConfirm={confirm}
    >
      <div className="stack totp-disable">
        <Field
          label={withPassword ? "Your password" : "Code from your authenticator app"}
          hint={withPassword ? undefined : "Or one of your recovery codes."}
          error={error}
        >
          {(props) => (
            <input
              {...props}
              className="input"
              type={withPassword ? "password" : "text"}
              autoComplete={withPassword ? "current-password" : "one-time-code"}
              inputMode={withPassword ? undefined : "text"}
              value={value}
              onChange={(event) => {
                setValue(event.target.value);
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
        <div>
          <button
            type="button"
            className="link-button"
            onClick={() => {
              setWithPassword(!withPassword);
              setValue("");
              setError(undefined);
            }}
          >
            {withPassword ? "Use a code instead" : "Use your password instead"}
          </button>
        </div>
      </div>
    </ConfirmDialog>
  );
}

/** What the section says of an app that is on: since when, and how many recovery codes are left. */
function EnrolledStatus({ status }: { status: TotpStatus }) {
  const low = status.recoveryCodesLeft <= 2;
  return (
    <>
      <p>
        <span className="badge badge-success totp-badge">On</span> An authenticator app asks for a code when you sign in
        with your password{status.confirmedAt ? `, since ${day(status.confirmedAt)}` : ""}.
      </p>
      <p className={low ? "totp-warning" : "muted"}>
        {status.recoveryCodesLeft} of {RECOVERY_CODE_COUNT} recovery codes left.
        {low ? " Make new ones before you run out." : ""}
      </p>
    </>
  );
}

/**
 * Decision 038, the Profile's 'Two-factor authentication' section: turning an authenticator app
 * on (a QR code and the setup key, then one code from the app), the 10 recovery codes shown once
 * (copy, download), the status (since when, codes left), making new codes and turning it off (both
 * confirmed). Loading and error states; every refusal is said beside its field.
 */
export function TwoFactorSection() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const session = useSession();
  const status = useQuery(trpc.totp.status.queryOptions());
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const setUp = useRef<HTMLButtonElement>(null);
  const start = useMutation(
    trpc.totp.start.mutationOptions({
      onSuccess: setEnrolment,
      onError: (failure) => toast.error(errorMessage(failure)),
    }),
  );
  const refresh = () => void queryClient.invalidateQueries({ queryKey: trpc.totp.pathKey() });

  return (
    <section className="card stack two-factor-section" aria-labelledby="two-factor-title">
      <h2 id="two-factor-title" className="panel-title">
        Two-factor authentication
      </h2>
      {codes && <RecoveryCodes codes={codes} email={session?.email ?? ""} onDone={() => setCodes(null)} />}
      {status.isPending ? (
        <p className="muted" role="status">
          <span className="spinner" aria-hidden="true" /> Loading…
        </p>
      ) : status.isError ? (
        <p role="alert">Whether two-factor authentication is on could not be loaded.</p>
      ) : status.data.enrolled ? (
        <>
          <EnrolledStatus status={status.data} />
          <div className="row">
            <RegenerateButton onCodes={setCodes} />
            <TurnOffButton />
          </div>
        </>
      ) : enrolment ? (
        <EnrolmentForm
          enrolment={enrolment}
          onConfirmed={(recoveryCodes) => {
            setEnrolment(null);
            setCodes(recoveryCodes);
            refresh();
          }}
          onCancel={() => {
            setEnrolment(null);
            requestAnimationFrame(() => setUp.current?.focus());
          }}
        />
      ) : (
        <>
          <p className="muted">
            Off. With an authenticator app, signing in with your password also asks for a 6-digit code from your phone.
          </p>
          <div>
            <button
              ref={setUp}
              type="button"
              className="btn btn-primary"
              disabled={start.isPending}
              onClick={() => start.mutate()}
            >
              {start.isPending && <span className="spinner" aria-hidden="true" />}
              Set up an authenticator app
            </button>
          </div>
        </>
      )}
    </section>
  );
}
