"use client";

// The compared runs' configs side by side: every key as a dotted path, each run's value, the keys where the runs
// differ marked (and, on request, the only ones shown — `?keys=differ`). lib/training/config-diff.ts decides.
import { configDiff } from "@/lib/training/config-diff";
import { useUrlState } from "@/components/ui/url-state";
import { RUN_COLORS, type ComparedRun } from "./runs-overlay";

export function ConfigDiffTable({ runs }: { runs: ComparedRun[] }) {
  const url = useUrlState();
  const onlyDiffering = url.get("keys") === "differ";
  const diff = configDiff(runs.map((r) => r.config));
  const rows = onlyDiffering ? diff.rows.filter((r) => r.differs) : diff.rows;
  return (
    <div>
      <div className="mb-2 flex flex-wrap items-center justify-between gap-2 text-xs text-ink-2">
        <span data-testid="config-differing">
          {runs.length < 2 ? "One run: nothing to compare yet." : diff.differing === 0 ? `The ${runs.length} configs are identical (${diff.rows.length} keys).` : `${diff.differing} of ${diff.rows.length} keys differ.`}
        </span>
        <label className="flex items-center gap-1.5">
          <input type="checkbox" className="h-4 w-4 accent-[var(--lg-accent)]" checked={onlyDiffering} onChange={(e) => url.set({ keys: e.target.checked ? "differ" : null })} />
          Only keys that differ
        </label>
      </div>
      <div className="relative overflow-x-auto rounded-md border border-line" tabIndex={0} role="region" aria-label="Config keys of the compared runs">
        <table className="w-full border-collapse text-left text-xs" data-testid="config-diff">
          <thead className="border-b border-line bg-panel-2 text-ink-2">
            <tr>
              <th scope="col" className="px-3 py-2 font-medium">Key</th>
              {runs.map((r, i) => (
                <th key={r.id} scope="col" className="px-3 py-2 font-medium whitespace-nowrap">
                  <span className="mr-1.5 inline-block h-2 w-2 rounded-full" style={{ background: RUN_COLORS[i % RUN_COLORS.length] }} />
                  {r.name ?? r.id}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 && (
              <tr>
                <td colSpan={runs.length + 1} className="px-3 py-6 text-center text-ink-2">
                  No key differs.
                </td>
              </tr>
            )}
            {rows.map((row) => (
              <tr key={row.path} className={`border-b border-line last:border-0 ${row.differs ? "bg-warn/10" : ""}`} data-differs={row.differs}>
                <th scope="row" className="px-3 py-1.5 font-mono font-normal text-ink [overflow-wrap:anywhere]">
                  {row.path}
                  {row.differs && <span className="sr-only"> (differs)</span>}
                </th>
                {row.values.map((v, i) => (
                  <td key={runs[i]!.id} className={`px-3 py-1.5 font-mono [overflow-wrap:anywhere] ${row.differs ? "font-medium text-ink" : "text-ink-2"}`}>
                    {v ?? <span className="text-ink-2 italic">not set</span>}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
