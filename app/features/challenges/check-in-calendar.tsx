import { calendarWeeks, formatDay } from "~/lib/calendar-days";
import { cn } from "~/lib/utils";

const WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];

/** The attempt's days, Monday first, each marked checked in, missed, today or still ahead. */
export function CheckInCalendar({ startsOn, endsOn, today, days }: { startsOn: string; endsOn: string; today: string; days: string[] }) {
  const checked = new Set(days);
  const weeks = calendarWeeks(startsOn, endsOn);
  return (
    <table className="w-full table-fixed border-separate border-spacing-1 text-center text-sm" data-testid="check-in-calendar">
      <caption className="sr-only">
        Your check-ins from {formatDay(startsOn)} to {formatDay(endsOn)}
      </caption>
      <thead>
        <tr>
          {WEEKDAYS.map((d) => (
            <th key={d} scope="col" className="text-xs font-medium text-muted">
              {d}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {weeks.map((week, i) => (
          <tr key={i}>
            {week.map((day, j) => {
              if (!day) return <td key={j} />;
              const state = checked.has(day) ? "checked in" : day < today ? "missed" : day === today ? "today" : "ahead";
              return (
                <td
                  key={j}
                  data-day={day}
                  data-state={state}
                  className={cn(
                    "rounded-md p-1.5",
                    state === "checked in" && "bg-monk text-white font-semibold",
                    state === "missed" && "bg-stone-100 text-stone-500",
                    state === "today" && "border-2 border-monk",
                    state === "ahead" && "text-stone-700",
                  )}
                >
                  <span aria-hidden="true">{Number(day.slice(8, 10))}</span>
                  <span className="sr-only">
                    {formatDay(day)}: {state}
                  </span>
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
