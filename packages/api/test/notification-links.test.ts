import { describe, expect, it } from "vitest";
import { paths } from "../../../apps/web/src/config/paths";
import { NOTIFICATION_LINKS } from "../src/services/notification-links";

/** Paths match case-insensitively and without a trailing slash in the web app (SPEC §2.1). */
const normalized = (path: string) => path.replace(/(.)\/$/, "$1").toLowerCase();

describe("notification links (SPEC §4)", () => {
  it("lead to the web app's route of the same name", () => {
    for (const [name, link] of Object.entries(NOTIFICATION_LINKS)) {
      expect(name in paths, `${name} is a route of apps/web/src/config/paths.ts`).toBe(true);
      expect(normalized(link), name).toBe(normalized(paths[name as keyof typeof paths]));
    }
  });

  it("keep the spec's spelling", () => {
    expect(NOTIFICATION_LINKS).toEqual({
      transcript: "/audiomanagement/trascript",
      translatedAudio: "/audiomanagement/translatedaudio",
      recordings: "/Recordings/",
      feedback: "/audiomanagement/feedback",
      tasks: "/Audios",
    });
  });
});
