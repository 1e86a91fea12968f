import { criteriaMet, passwordStrength } from "@tafsiri/domain";
import "#web/styles/password-meter.css";

/**
 * SPEC §4 strength meter under a password field: a bar of five steps and the word Weak, Moderate
 * or Strong (the word carries the meaning, the colour only repeats it). Nothing for an empty password.
 */
export function PasswordMeter({ id, password }: { id: string; password: string }) {
  if (!password) return <p id={id} className="sr-only" aria-live="polite" />;
  const strength = passwordStrength(password);
  const met = criteriaMet(password);
  return (
    <div className="pw-meter" data-strength={strength.toLowerCase()}>
      <div className="pw-meter-bar" aria-hidden="true">
        <span style={{ width: `${(met / 5) * 100}%` }} />
      </div>
      <p id={id} className="pw-meter-label" aria-live="polite">
        Password strength: <strong>{strength}</strong>
      </p>
    </div>
  );
}
