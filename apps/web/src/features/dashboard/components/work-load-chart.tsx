import { Bar, BarChart, CartesianGrid, LabelList, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { EngagementRow } from "#web/lib/api-types";

/** Height of one user's bar row and of the axes and legend around them (px). */
const ROW_HEIGHT = 44;
const CHROME_HEIGHT = 72;
const COMPLETED_COLOUR = "#2457d6";
const REMAINING_COLOUR = "#c3cddc";

/**
 * SPEC §2.6 Work Load as a horizontal stacked bar chart (recharts): one bar per user, its length
 * the user's tasks, the completed part in blue, each bar labelled 'completed / tasks' in text so
 * nothing is told by colour alone. Decorative for assistive technology (keyboard layer off): the
 * caller gives the same figures as a table. Default export, loaded lazily so only the dashboard
 * carries recharts. Not animated: the bars and their labels show at once, even after a resize.
 */
export default function WorkLoadChart({ rows }: { rows: readonly EngagementRow[] }) {
  const data = rows.map((row) => ({
    username: row.username,
    tasks: row.tasks,
    completed: row.completed,
    remaining: Math.max(row.tasks - row.completed, 0),
    label: `${row.completed} / ${row.tasks}`,
  }));
  return (
    <ResponsiveContainer width="100%" height={CHROME_HEIGHT + ROW_HEIGHT * data.length}>
      <BarChart
        data={data}
        layout="vertical"
        margin={{ top: 8, right: 56, bottom: 8, left: 8 }}
        accessibilityLayer={false}
      >
        <CartesianGrid horizontal={false} stroke="#e3e8ef" />
        <XAxis type="number" allowDecimals={false} stroke="#566270" tick={{ fill: "#566270", fontSize: 12 }} />
        <YAxis
          type="category"
          dataKey="username"
          width={128}
          stroke="#566270"
          tick={{ fill: "#1f2933", fontSize: 13 }}
          interval={0}
        />
        {/* The items' text in the page's ink: in the series' own colours the light grey one failed WCAG 1.4.3. */}
        <Tooltip cursor={{ fill: "rgba(36, 87, 214, 0.06)" }} itemStyle={{ color: "#1f2933" }} />
        <Legend verticalAlign="top" height={28} wrapperStyle={{ fontSize: 13, color: "#1f2933" }} />
        <Bar
          dataKey="completed"
          name="Completed"
          stackId="work"
          fill={COMPLETED_COLOUR}
          barSize={22}
          isAnimationActive={false}
        />
        <Bar
          dataKey="remaining"
          name="Not completed"
          stackId="work"
          fill={REMAINING_COLOUR}
          barSize={22}
          radius={[0, 4, 4, 0]}
          isAnimationActive={false}
        >
          <LabelList dataKey="label" position="right" fill="#1f2933" fontSize={13} />
        </Bar>
      </BarChart>
    </ResponsiveContainer>
  );
}
