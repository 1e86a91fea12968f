import { ManagementLayout } from "#web/app/layouts/management-layout";
import { WebhooksPage } from "#web/features/webhooks/components/webhooks-page";

/** /management/webhooks: the webhook endpoints and their delivery logs (Admin; decision 037), beside the management menu. */
export function Component() {
  return (
    <ManagementLayout title="Webhooks">
      <WebhooksPage />
    </ManagementLayout>
  );
}
