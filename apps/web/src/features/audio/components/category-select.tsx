import { SelectField } from "#web/components/field";
import { CATEGORIES, type Category } from "@tafsiri/domain";

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
  return (
    <SelectField
      label="Category"
      name="category"
      value={value}
      emptyOption="Select a category"
      options={CATEGORIES}
      disabled={disabled}
      onChange={onChange}
    />
  );
}
