import { useId } from "react";

/** Decision 024: the optional 'Session date (optional)' of an audio's participant link (a date input, YYYY-MM-DD). */
export function SessionDateField({
  value,
  onChange,
  disabled,
}: {
  value: string;
  onChange(day: string): void;
  disabled?: boolean;
}) {
  const id = useId();
  return (
    <div className="field">
      <label className="label" htmlFor={id}>
        Session date (optional)
      </label>
      <input
        id={id}
        name="session_date"
        className="input"
        type="date"
        value={value}
        disabled={disabled}
        onChange={(e) => onChange(e.target.value)}
      />
    </div>
  );
}
