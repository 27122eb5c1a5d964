import { Area, AreaChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

interface Point {
  date: string;
  views: number;
  uniqueVisitors?: number;
}

/** A calendar day of the company ("2026-03-11"), shown as it is: parsing it as an instant would
 * move it to the day before for anyone west of UTC. */
export function shortDate(value: string) {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return value;
  const d = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return d.toLocaleDateString('en-US', { month: 'short', day: 'numeric' });
}

export default function PageViewsChart({ data }: { data: Point[] }) {
  return (
    <ResponsiveContainer width="100%" height={260}>
      <AreaChart data={data} margin={{ top: 10, right: 10, left: -20, bottom: 0 }}>
        <defs>
          <linearGradient id="views" x1="0" y1="0" x2="0" y2="1">
            <stop offset="5%" stopColor="#4f46e5" stopOpacity={0.35} />
            <stop offset="95%" stopColor="#4f46e5" stopOpacity={0} />
          </linearGradient>
        </defs>
        <CartesianGrid strokeDasharray="3 3" stroke="#e3e6ee" />
        <XAxis dataKey="date" tickFormatter={shortDate} fontSize={12} minTickGap={20} />
        <YAxis allowDecimals={false} fontSize={12} />
        <Tooltip labelFormatter={(v) => shortDate(String(v))} />
        <Area type="monotone" dataKey="views" name="Views" stroke="#4f46e5" fill="url(#views)" strokeWidth={2} />
        <Area type="monotone" dataKey="uniqueVisitors" name="Unique visitors" stroke="#16a34a" fill="none" strokeWidth={2} />
      </AreaChart>
    </ResponsiveContainer>
  );
}
