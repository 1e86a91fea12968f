import { createReadStream } from "node:fs";
import type { FastifyReply } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import contentDisposition from "content-disposition";
import { z } from "zod";
import { openBackupDownload, type AppDeps } from "@tafsiri/api";
import type { RequestLimit } from "../plugins/request-limit";
import { ZLinkQuery } from "./files";
import { useRestConventions } from "./rest/conventions";
import { ZRestFailure } from "./rest/shapes/common";

/** A backup link's query: the admin it was made for beside the signed link's `expires` and `signature`. */
const ZBackupLinkQuery = ZLinkQuery.extend({
  by: z
    .string()
    .optional()
    .meta({ description: "The admin the link was made for.", examples: ["7c0e1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b"] }),
});

/**
 * `GET /api/backups/{name}/file?by&expires&signature` (decision 027, the Backups page's Download):
 * streams a backup archive from the backup folder to the holder of a link from
 * GET /api/backups/{name}/download (backups.download), without an Authorization header, so a
 * browser download can follow it. The archive is read as a stream, never whole into memory; the
 * download is audited (openBackupDownload). 400 for a name that is not an archive's, 403 'This
 * link has expired or is invalid.' (forged, expired, or its admin no longer one), 404 for an
 * archive that is gone.
 */
export const backupFileRoutes: FastifyPluginAsyncZod<{ deps: AppDeps; limitRequests: RequestLimit }> = async (
  app,
  { deps, limitRequests },
) => {
  useRestConventions(app);
  app.addHook("onRequest", limitRequests);
  app.get(
    "/api/backups/:name/file",
    {
      compress: false,
      schema: {
        summary: "Download a backup archive",
        description:
          'SPEC §6 (Admin only); decision 027; docs/operations.md "Backups and restore". Streams the archive (application/zip, an ' +
          "`attachment` under its name) to the holder of a signed link from GET /api/backups/{name}/download, valid " +
          "for 5 minutes; no Authorization header needed. Audited. 400 'Unknown archive name: use a name the list " +
          "of backups gives (tafsiri-backup-{time}.zip).', 403 'This link has expired or is invalid.', 404 'Backup " +
          "not found: it may have been deleted or pruned.', 503 when this process offers no backups.",
        tags: ["Backups"],
        security: [],
        params: z.object({
          name: z.string().meta({ examples: ["tafsiri-backup-2026-12-07T05-10-00.000Z.zip"] }),
        }),
        querystring: ZBackupLinkQuery,
        response: {
          200: {
            description: "The archive.",
            content: { "application/zip": { schema: z.string().meta({ format: "binary", examples: ["PK…"] }) } },
          },
          "4xx": ZRestFailure,
          "5xx": ZRestFailure,
        },
      },
    },
    async (req, reply) => {
      const archive = await openBackupDownload(deps, { name: req.params.name, ...req.query });
      const raw = reply as unknown as FastifyReply;
      raw.header("content-type", "application/zip");
      raw.header("content-disposition", contentDisposition(archive.name, { type: "attachment" }));
      raw.header("content-length", String(archive.sizeBytes));
      raw.header("cache-control", "no-store");
      return raw.send(createReadStream(archive.file));
    },
  );
};
