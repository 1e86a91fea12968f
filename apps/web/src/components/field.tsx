import { useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes } from "react";
import "./field.css";

/** What `Field` hands its control to spread on it: the id the label points at and the aria wiring. */
export interface FieldControlProps {
  id: string;
  "aria-describedby": string | undefined;
  "aria-invalid": true | undefined;
}

interface FieldProps {
  /** The control's id (the label's `htmlFor`); one from `useId` when left out. */
  id?: string | undefined;
  label: ReactNode;
  /** A line under the control (`.field-hint`, id `<id>-hint`) that describes it. */
  hint?: ReactNode;
  /** The field's error (`.field-error`, id `<id>-error`, `role="alert"`); nothing when empty. */
  error?: ReactNode;
  /** Ids of other elements that describe the control too (a counter, a list of columns, an error shared by a row). */
  describedBy?: string | undefined;
  /** Marks the control invalid when its error is shown elsewhere (`describedBy` then names it). */
  invalid?: boolean | undefined;
  /** More classes for the wrapping `.field`. */
  className?: string | undefined;
  /** Draws the control from the wiring props; may draw what sits beside it (a button, a counter) too. */
  children(control: FieldControlProps): ReactNode;
}

/**
 * One labelled form field, used by every form of the web app (STYLE §20): the label, the control
 * (`children` is given `{ id, "aria-describedby", "aria-invalid" }` to spread on an input, select,
 * textarea or any custom control), an optional hint and an optional error under it. The ids are
 * wired so a screen reader reads the label, the hint and the error with the control: the label's
 * `htmlFor` is the control's id, `aria-describedby` names the hint, `describedBy` and the error (in
 * that order), `aria-invalid` is set while there is an error, and the error is an alert so it is
 * announced when it appears (WCAG 1.3.1, 3.3.1, 3.3.2, 4.1.3; SPEC §5, §8).
 */
export function Field({ id, label, hint, error, describedBy, invalid, className, children }: FieldProps) {
  const generated = useId();
  const controlId = id ?? generated;
  const hintId = `${controlId}-hint`;
  const errorId = `${controlId}-error`;
  const hasHint = hint !== undefined && hint !== null && hint !== false && hint !== "";
  const hasError = error !== undefined && error !== null && error !== false && error !== "";
  const described = [hasHint ? hintId : "", describedBy ?? "", hasError ? errorId : ""].filter(Boolean).join(" ");
  return (
    <div className={className ? `field ${className}` : "field"}>
      <label className="label" htmlFor={controlId}>
        {label}
      </label>
      {children({
        id: controlId,
        "aria-describedby": described || undefined,
        "aria-invalid": hasError || invalid ? true : undefined,
      })}
      {hasHint ? (
        <p id={hintId} className="field-hint">
          {hint}
        </p>
      ) : null}
      {hasError ? (
        <p id={errorId} className="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

type TextFieldProps = Omit<
  InputHTMLAttributes<HTMLInputElement>,
  "id" | "value" | "onChange" | "aria-describedby" | "aria-invalid"
> &
  Pick<FieldProps, "id" | "label" | "hint" | "error" | "describedBy" | "invalid"> & {
    value: string;
    onChange(value: string): void;
  };

/**
 * The common case of `Field`: a text-like `<input className="input">` (any `type`; `className`
 * adds classes to the input) that reports its new value. Other input attributes pass through.
 */
export function TextField({
  id,
  label,
  hint,
  error,
  describedBy,
  invalid,
  className,
  onChange,
  ...input
}: TextFieldProps) {
  return (
    <Field id={id} label={label} hint={hint} error={error} describedBy={describedBy} invalid={invalid}>
      {(control) => (
        <input
          {...input}
          {...control}
          className={className ? `input ${className}` : "input"}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
    </Field>
  );
}

type SelectFieldProps<V extends string> = Omit<
  SelectHTMLAttributes<HTMLSelectElement>,
  "id" | "value" | "onChange" | "aria-describedby" | "aria-invalid" | "children"
> &
  Pick<FieldProps, "id" | "label" | "hint" | "error" | "describedBy"> & {
    value: V;
    /** The choices, in order; `optionLabel` words each (the value itself when left out). */
    options: readonly Exclude<V, "">[];
    optionLabel?: (value: Exclude<V, "">) => ReactNode;
    /** The text of an empty first option (value ""), e.g. 'Select a group' or 'All groups'. */
    emptyOption?: string;
    onChange(value: V): void;
  };

/**
 * The other common case of `Field`: a `<select className="select">` of `options` (after an
 * optional empty first option) that reports the value chosen. Other select attributes pass through.
 */
export function SelectField<V extends string>({
  id,
  label,
  hint,
  error,
  describedBy,
  className,
  value,
  options,
  optionLabel,
  emptyOption,
  onChange,
  ...select
}: SelectFieldProps<V>) {
  return (
    <Field id={id} label={label} hint={hint} error={error} describedBy={describedBy}>
      {(control) => (
        <select
          {...select}
          {...control}
          className={className ? `select ${className}` : "select"}
          value={value}
          onChange={(e) => onChange(e.target.value as V)}
        >
          {emptyOption !== undefined && <option value="">{emptyOption}</option>}
          {options.map((option) => (
            <option key={option} value={option}>
              {optionLabel ? optionLabel(option) : option}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
