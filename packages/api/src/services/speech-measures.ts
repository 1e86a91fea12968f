import { GROUP_MEASURES, PARTICIPANT_GROUPS } from "@tafsiri/domain";
import { speechMeasureGroups } from "@tafsiri/db/repositories/speech-measures";
import type { AppDeps, SessionUser } from "../context";
import type { SpeechMeasures } from "../schemas/speech-measures";
import { requireAdmin } from "./access";

/**
 * Decision 035, "Speech measures" (admin): per group (Control, Dementia) and measure
 * (GROUP_MEASURES) of PAR on the original audio, n, mean, sample SD, median, quartiles and IQR over
 * the recordings measured, as the measures job last summarised them (speechMeasureGroups: one
 * primary-key read; refreshSpeechMeasureGroups each round); a group × measure without a value has
 * n 0 and null figures. Throws AppError FORBIDDEN for staff.
 */
export async function speechMeasuresReport(deps: AppDeps, user: SessionUser): Promise<SpeechMeasures> {
  requireAdmin(user);
  const found = await speechMeasureGroups(deps.db);
  const rows = PARTICIPANT_GROUPS.flatMap((group) =>
    GROUP_MEASURES.map((measure) => {
      const row = found.find((r) => r.group === group && r.measure === measure);
      const { n = 0, mean = null, sd = null, median = null, q1 = null, q3 = null } = row ?? {};
      return { group, measure, n, mean, sd, median, q1, q3, iqr: q1 === null || q3 === null ? null : q3 - q1 };
    }),
  );
  return { speaker: "PAR", rows };
}
