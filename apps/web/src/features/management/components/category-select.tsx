import { useId } from "react";
import { CATEGORIES, type Category } from "../lib/categories";

/** The labelled category choice of the upload forms; empty until the admin picks one (SPEC §2.16). */
export function CategorySelect({
  value,
  onChange,
  disabled,
}: {
  value: Category | "";
  onChange(category: Category | ""): void;
  disabled?: boolean;
}) {
  const id = useId();
  return (
    <div className="field">
      <label className="label" htmlFor={id}>
        Category
      </label>
      <select
        id={id}
        name="category"
        className="select"
        value={value}
        disabled={disabled}
        onChange={(e) => onChange(e.target.value as Category | "")}
      >
        <option value="">Select a category</option>
        {CATEGORIES.map((category) => (
          <option key={category} value={category}>
            {category}
          </option>
        ))}
      </select>
    </div>
  );
}
