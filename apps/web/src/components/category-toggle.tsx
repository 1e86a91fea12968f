import { CATEGORIES, type Category } from "@tafsiri/domain";

/** The Control / Dementia segmented toggle of Assign Tasks and Manage Audios (SPEC §2.17, §2.18). */
export function CategoryToggle({ value, onChange }: { value: Category; onChange(category: Category): void }) {
  return (
    <div className="toggle" role="group" aria-label="Category">
      {CATEGORIES.map((category) => (
        <button key={category} type="button" aria-pressed={value === category} onClick={() => onChange(category)}>
          {category}
        </button>
      ))}
    </div>
  );
}
