import { ManagementLayout } from "#web/features/management/components/management-layout";
import { SingleUpload } from "#web/features/management/components/single-upload";
import { BulkUpload } from "#web/features/management/components/bulk-upload";
import { useInvalidateAudios } from "#web/features/management/hooks/use-invalidate-audios";

/** SPEC §2.16 Upload (/management/upload): single and bulk audio upload. */
export function Component() {
  const invalidate = useInvalidateAudios();
  return (
    <ManagementLayout title="Upload">
      <div className="upload-grid">
        <SingleUpload onUploaded={() => void invalidate()} />
        <BulkUpload onUploaded={() => void invalidate()} />
      </div>
    </ManagementLayout>
  );
}
