import type { ImportDay } from '@/lib/dashboard/shop-overview';
import { formatCount } from '../../../_ui/format';

/** Imports per day as stacked bars (done, failed), with the items applied under each day. */
export function ImportsChart({ days }: { days: ImportDay[] }) {
  const most = Math.max(1, ...days.map((d) => d.done + d.failed));
  const label = (day: string) => new Date(`${day}T00:00:00Z`).toLocaleDateString('en-GB', { weekday: 'short', day: 'numeric', timeZone: 'UTC' });
  return (
    <figure>
      <div className="flex h-40 items-end gap-2" aria-hidden="true">
        {days.map((d) => (
          <div key={d.day} className="flex h-full flex-1 flex-col justify-end" title={`${d.day}: ${d.done} done, ${d.failed} failed`}>
            <div className="bg-red-600" style={{ height: `${(d.failed / most) * 100}%` }} />
            <div className="bg-emerald-600" style={{ height: `${(d.done / most) * 100}%` }} />
          </div>
        ))}
      </div>
      <div className="mt-1 flex gap-2 text-center text-xs text-slate-700" aria-hidden="true">
        {days.map((d) => (
          <div key={d.day} className="min-w-0 flex-1">
            <div>{label(d.day)}</div>
            <div className="truncate text-slate-600">{formatCount(d.items_applied)}</div>
          </div>
        ))}
      </div>
      <figcaption className="mt-2 flex flex-wrap gap-4 text-xs text-slate-700">
        <span>
          <span className="mr-1 inline-block h-2.5 w-2.5 bg-emerald-600" />
          done
        </span>
        <span>
          <span className="mr-1 inline-block h-2.5 w-2.5 bg-red-600" />
          failed
        </span>
        <span>numbers under the days: items applied</span>
      </figcaption>
      <table className="sr-only">
        <caption>Imports per day</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col">Done</th>
            <th scope="col">Failed</th>
            <th scope="col">Items applied</th>
          </tr>
        </thead>
        <tbody>
          {days.map((d) => (
            <tr key={d.day}>
              <th scope="row">{d.day}</th>
              <td>{d.done}</td>
              <td>{d.failed}</td>
              <td>{d.items_applied}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
