import { useEffect, useRef } from "react";
import { toast } from "sonner";
import { recoveryCodesFile } from "../lib/recovery-codes-file";

/**
 * Decision 038: the 10 recovery codes, shown this once (after turning the app on, or making new
 * ones): the list, Copy, Download (.txt) and 'I have saved them', which hides them for good. Focus
 * moves to its heading when it appears, so a screen reader reads what follows.
 */
export function RecoveryCodes({ codes, email, onDone }: { codes: string[]; email: string; onDone(): void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const text = recoveryCodesFile(codes, email, new Date());
  const copy = () =>
    void navigator.clipboard.writeText(codes.join("\n")).then(
      () => toast.success("Recovery codes copied."),
      () => toast.error("The recovery codes could not be copied. Select them and copy them by hand."),
    );
  const href = `data:text/plain;charset=utf-8,${encodeURIComponent(text)}`;
  return (
    <div className="card stack shown-once recovery-codes" role="region" aria-labelledby="recovery-codes-title">
      <h3 id="recovery-codes-title" className="panel-title" tabIndex={-1} ref={heading}>
        Your recovery codes
      </h3>
      <p>
        <strong>Save these codes now: they are not shown again.</strong> If you lose your authenticator app, each code
        signs you in once in place of a 6-digit code.
      </p>
      <ol className="recovery-code-list" aria-label="Recovery codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <div className="row">
        <button type="button" className="btn" onClick={copy}>
          Copy
        </button>
        <a className="btn" href={href} download="tafsiri-recovery-codes.txt">
          Download .txt
        </a>
        <button type="button" className="btn btn-primary" onClick={onDone}>
          I have saved them
        </button>
      </div>
    </div>
  );
}
