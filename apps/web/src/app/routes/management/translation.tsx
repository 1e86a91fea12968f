import { ManagementLayout } from "#web/app/layouts/management-layout";
import { TranslationAdminPage } from "#web/features/translation-admin/components/translation-admin-page";

/** Decision 035: Management → Translation (/management/translation, Admin): languages, glossary and memory. */
export function Component() {
  return (
    <ManagementLayout title="Translation">
      <TranslationAdminPage />
    </ManagementLayout>
  );
}
