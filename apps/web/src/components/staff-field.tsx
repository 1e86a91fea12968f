/** A staff member as a staff dropdown lists them. */
export interface StaffChoice {
  id: string;
  username: string;
}

/** SPEC §8: shown when the list of active staff cannot be loaded. */
export const STAFF_LIST_FAILED = "Failed to load staff list.";

/**
 * A labelled staff dropdown (SPEC §2.13 'Select Recorder', §2.15 'Select staff'): 'Loading staff…'
 * while the list loads, then 'Select a staff member' and one option per choice (its username and
 * `suffix(member)`, e.g. ' (You)'), with 'Failed to load staff list.' under it when loading failed.
 */
export function StaffField({
  label,
  choices,
  loading,
  failed,
  value,
  onChange,
  disabled,
  name,
  suffix,
}: {
  label: string;
  choices: readonly StaffChoice[];
  loading: boolean;
  failed: boolean;
  value: string;
  onChange(staffId: string): void;
  disabled?: boolean;
  name?: string;
  suffix?: (member: StaffChoice) => string;
}) {
  return (
    <label className="field">
      <span className="label">{label}</span>
      <select className="select" name={name} value={value} onChange={(e) => onChange(e.target.value)} disabled={disabled}>
        <option value="">{loading ? "Loading staff…" : "Select a staff member"}</option>
        {choices.map((member) => (
          <option key={member.id} value={member.id}>
            {member.username}
            {suffix?.(member)}
          </option>
        ))}
      </select>
      {failed && <span className="field-error">{STAFF_LIST_FAILED}</span>}
    </label>
  );
}
