// A key-by-key diff (lib/json/diff.ts entries) as a table: the key, how it changed, both values.
import { Badge, type Tone } from "@/components/ui/badge";

const CHANGE_TONE: Record<string, Tone> = { added: "pass", removed: "fail", changed: "warn" };
export type DiffRow = { path: string; change: "added" | "removed" | "changed"; before?: string; after?: string };

export function DiffTable({ entries, a, b, testId }: { entries: readonly DiffRow[]; a: string; b: string; testId?: string }) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full min-w-[32rem] table-fixed text-left text-xs" data-testid={testId}>
        <thead className="text-ink-3">
          <tr>
            <th className="w-[30%] py-1 pr-2 font-medium">Key</th>
            <th className="w-24 py-1 pr-2 font-medium">Change</th>
            <th className="py-1 pr-2 font-medium">{a}</th>
            <th className="py-1 font-medium">{b}</th>
          </tr>
        </thead>
        <tbody className="font-mono">
          {entries.map((e) => (
            <tr key={e.path} className="border-t border-line align-top" data-testid="diff-row">
              <td className="py-1.5 pr-2 break-all text-ink">{e.path}</td>
              <td className="py-1.5 pr-2 font-sans"><Badge tone={CHANGE_TONE[e.change]}>{e.change}</Badge></td>
              <td className="py-1.5 pr-2 break-all text-fail">{e.before !== undefined && <span className="rounded bg-fail/10 px-1">{e.before}</span>}</td>
              <td className="py-1.5 break-all text-pass">{e.after !== undefined && <span className="rounded bg-pass/10 px-1">{e.after}</span>}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
