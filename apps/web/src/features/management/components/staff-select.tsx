/** A staff member as the choices list them. */
export interface StaffOption {
  id: string;
  username: string;
}

/** A staff dropdown, empty until one is chosen; `excludeId` leaves out the current assignee (SPEC §2.18). */
export function StaffSelect({
  staff,
  value,
  onChange,
  label,
  excludeId,
  disabled,
  id,
}: {
  staff: readonly StaffOption[];
  value: string;
  onChange(staffId: string): void;
  label: string;
  excludeId?: string;
  disabled?: boolean;
  id?: string;
}) {
  return (
    <select
      id={id}
      className="select"
      aria-label={id ? undefined : label}
      name="staff"
      value={value}
      disabled={disabled}
      onChange={(e) => onChange(e.target.value)}
    >
      <option value="">Select staff</option>
      {staff
        .filter((member) => member.id !== excludeId)
        .map((member) => (
          <option key={member.id} value={member.id}>
            {member.username}
          </option>
        ))}
    </select>
  );
}
