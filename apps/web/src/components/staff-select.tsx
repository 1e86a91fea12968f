import { useId } from "react";
import { Field, type FieldControlProps } from "./field";

/** A staff member as a staff dropdown lists them. */
export interface StaffChoice {
  id: string;
  username: string;
}

/** SPEC §8: shown when the list of active staff cannot be loaded. */
export const STAFF_LIST_FAILED = "Failed to load staff list.";

export interface StaffSelectProps {
  /** The dropdown's name: shown above it, or only given to assistive technology when `labelHidden`. */
  label: string;
  /** Name the dropdown with an aria-label instead of a visible label (e.g. in a table row). */
  labelHidden?: boolean;
  staff: readonly StaffChoice[];
  /** Staff left out of the choices (e.g. the current assignee, SPEC §2.15, §2.18). */
  excludeIds?: readonly (string | null | undefined)[];
  value: string;
  onChange(staffId: string): void;
  /** The empty first option's text. */
  placeholder?: string;
  /** The list is loading: the empty option reads 'Loading staff…'. */
  loading?: boolean;
  /** The list could not be loaded: 'Failed to load staff list.' under a visible label. */
  failed?: boolean;
  /** Text after a member's username, e.g. ' (You)'. */
  suffix?: (member: StaffChoice) => string;
  disabled?: boolean;
  name?: string;
  /** A refusal to show under a visible label (e.g. 'Please select a staff member to reassign.'), tied to the dropdown. */
  error?: string | null | undefined;
}

/**
 * The staff dropdown of every screen that picks a staff member: the Translated Audio 'Select
 * Recorder' (SPEC §2.13), Recommend's 'Select staff' (§2.15), the Assign Tasks rows (§2.17) and
 * the Reassign modal (§2.18). An empty first option (`placeholder`, or 'Loading staff…' while
 * `loading`), then one option per member not in `excludeIds`: its username and `suffix(member)`.
 */
export function StaffSelect({
  label,
  labelHidden = false,
  staff,
  excludeIds = [],
  value,
  onChange,
  placeholder = "Select a staff member",
  loading = false,
  failed = false,
  suffix,
  disabled,
  name,
  error,
}: StaffSelectProps) {
  const id = useId();
  const failedId = `${id}-failed`;
  const select = (wiring: Pick<FieldControlProps, "id"> & Partial<FieldControlProps>) => (
    <select
      {...wiring}
      className="select"
      aria-label={labelHidden ? label : undefined}
      name={name}
      value={value}
      disabled={disabled}
      onChange={(e) => onChange(e.target.value)}
    >
      <option value="">{loading ? "Loading staff…" : placeholder}</option>
      {staff
        .filter((member) => !excludeIds.includes(member.id))
        .map((member) => (
          <option key={member.id} value={member.id}>
            {member.username}
            {suffix?.(member)}
          </option>
        ))}
    </select>
  );
  if (labelHidden) return select({ id });
  return (
    <Field id={id} label={label} error={error} describedBy={failed ? failedId : undefined}>
      {(control) => (
        <>
          {select(control)}
          {failed && (
            <span id={failedId} className="field-error">
              {STAFF_LIST_FAILED}
            </span>
          )}
        </>
      )}
    </Field>
  );
}
