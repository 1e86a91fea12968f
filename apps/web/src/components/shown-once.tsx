import type { ReactNode } from "react";
import { toast } from "sonner";
import "./shown-once.css";

/**
 * A secret the server shows this once (an API token, decision 036; a webhook's signing secret,
 * decision 037): what to do with it (`children`), the value read-only with Copy, and Done, which
 * hides it for good. `what` names it: the region is '{region}', the field '{what}', the toasts
 * say '{What} copied.'.
 */
export function ShownOnce({
  region,
  what,
  value,
  onDone,
  children,
}: {
  region: string;
  what: string;
  value: string;
  onDone(): void;
  children: ReactNode;
}) {
  const copy = () =>
    void navigator.clipboard.writeText(value).then(
      () => toast.success(`${what[0]!.toUpperCase()}${what.slice(1)} copied.`),
      () => toast.error(`The ${what.toLowerCase()} could not be copied. Select it and copy it by hand.`),
    );
  return (
    <div className="card stack shown-once" role="region" aria-label={region}>
      <p>{children}</p>
      <div className="row">
        <input className="input shown-once-value" readOnly value={value} aria-label={what} />
        <button type="button" className="btn" onClick={copy}>
          Copy
        </button>
        <button type="button" className="btn" onClick={onDone}>
          Done
        </button>
      </div>
    </div>
  );
}
