import { ManagementLayout } from "#web/app/layouts/management-layout";
import { SingleUpload } from "#web/features/audio/components/single-upload";
import { BulkUpload } from "#web/features/audio/components/bulk-upload";
import { useInvalidateAudios } from "#web/hooks/use-invalidate-audios";

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
