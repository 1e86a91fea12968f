import dayjs from "dayjs";
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { ReviewDayTotal } from "#web/features/dashboard/lib/review-days";

const HEIGHT = 200;
const BAR_COLOUR = "#2457d6";

/**
 * Decision 025, reviews per day as a vertical bar chart (recharts): one bar per day, its height the
 * reviews of all admins that day, in one colour (the colour tells nothing), the axes in text.
 * Decorative for assistive technology (keyboard layer off): the caller gives the same figures, per
 * admin, as a table. Default export, loaded lazily so only the dashboard carries recharts. Not
 * animated.
 */
export default function ReviewsPerDayChart({ days }: { days: readonly ReviewDayTotal[] }) {
  const data = days.map((d) => ({ ...d, label: dayjs(d.day).format("D MMM") }));
  return (
    <ResponsiveContainer width="100%" height={HEIGHT}>
      <BarChart data={data} margin={{ top: 8, right: 8, bottom: 8, left: 0 }} accessibilityLayer={false}>
        <CartesianGrid vertical={false} stroke="#e3e8ef" />
        <XAxis
          dataKey="label"
          stroke="#566270"
          tick={{ fill: "#566270", fontSize: 12 }}
          minTickGap={16}
          interval="preserveStartEnd"
        />
        <YAxis allowDecimals={false} width={40} stroke="#566270" tick={{ fill: "#566270", fontSize: 12 }} />
        <Tooltip cursor={{ fill: "rgba(36, 87, 214, 0.06)" }} />
        <Bar dataKey="reviews" name="Reviews" fill={BAR_COLOUR} maxBarSize={28} isAnimationActive={false} />
      </BarChart>
    </ResponsiveContainer>
  );
}
