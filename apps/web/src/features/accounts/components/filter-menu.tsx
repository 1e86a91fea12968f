import { useState } from "react";
import { Popover } from "radix-ui";
import type { Role } from "#web/features/accounts/lib/account-form";

/** The Accounts list's filter: a role and/or active state; left out, every user. */
export interface AccountFilter {
  role?: Role;
  active?: boolean;
}

type RoleChoice = "all" | Role;
type StatusChoice = "all" | "active" | "inactive";

const toChoices = (f: AccountFilter) => ({
  role: (f.role ?? "all") as RoleChoice,
  status: (f.active === undefined ? "all" : f.active ? "active" : "inactive") as StatusChoice,
});

/** Words for the filter in force, for the trigger's label ('Staff, Active'), or null for none. */
export function describeFilter(f: AccountFilter): string | null {
  const parts = [f.role, f.active === undefined ? undefined : f.active ? "Active" : "Inactive"].filter(Boolean);
  return parts.length ? parts.join(", ") : null;
}

/**
 * SPEC §2.10 filter menu: role (All, Admin, Staff) and state (All, Active, Inactive); Apply sets
 * the list's filter and closes the menu, Clear resets the menu's choice to All and shows everyone.
 */
export function FilterMenu({ value, onApply }: { value: AccountFilter; onApply(filter: AccountFilter): void }) {
  const [open, setOpen] = useState(false);
  const [choice, setChoice] = useState(() => toChoices(value));
  const current = describeFilter(value);

  function apply(next: { role: RoleChoice; status: StatusChoice }) {
    const filter: AccountFilter = {};
    if (next.role !== "all") filter.role = next.role;
    if (next.status !== "all") filter.active = next.status === "active";
    onApply(filter);
    setOpen(false);
  }

  const radios = <T extends string>(legend: string, name: string, options: T[], selected: T, set: (v: T) => void) => (
    <fieldset className="filter-group">
      <legend className="label">{legend}</legend>
      {options.map((o) => (
        <label key={o} className="filter-option">
          <input type="radio" name={name} value={o} checked={selected === o} onChange={() => set(o)} />
          {o === "all" ? "All" : o[0]!.toUpperCase() + o.slice(1)}
        </label>
      ))}
    </fieldset>
  );

  return (
    <Popover.Root
      open={open}
      onOpenChange={(next) => {
        if (next) setChoice(toChoices(value));
        setOpen(next);
      }}
    >
      <Popover.Trigger asChild>
        <button type="button" className="btn">
          Filter{current ? `: ${current}` : ""}
        </button>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content className="filter-menu" align="end" sideOffset={6} aria-label="Filter accounts">
          {radios<RoleChoice>("Role", "account-filter-role", ["all", "Admin", "Staff"], choice.role, (role) =>
            setChoice((c) => ({ ...c, role })),
          )}
          {radios<StatusChoice>(
            "Status",
            "account-filter-status",
            ["all", "active", "inactive"],
            choice.status,
            (status) => setChoice((c) => ({ ...c, status })),
          )}
          <div className="dialog-actions">
            <button
              type="button"
              className="btn btn-sm"
              onClick={() => {
                const cleared = { role: "all", status: "all" } as const;
                setChoice(cleared);
                apply(cleared);
              }}
            >
              Clear
            </button>
            <button type="button" className="btn btn-sm btn-primary" onClick={() => apply(choice)}>
              Apply
            </button>
          </div>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
