"use client";

// Where training records come from: fresh scripted-expert demonstrations per run, or a stored snapshot.
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/react";
import { Field, Select, TextInput } from "@/components/ui/form";

export type DataSourceValue = { kind: "expert"; count: number } | { kind: "snapshot"; digest: string };

export function DataSourceField({ id, value, onChange }: { id: string; value: DataSourceValue; onChange: (v: DataSourceValue) => void }) {
  const trpc = useTRPC();
  const snapshots = useQuery(trpc.datasets.listSnapshots.queryOptions({}));
  const usable = (snapshots.data ?? []).filter((s) => s.kinds.includes("demonstration"));
  return (
    <fieldset className="space-y-2">
      <legend className="text-xs font-medium text-ink-2">Training data</legend>
      <label className="flex items-center gap-2 text-sm text-ink-2">
        <input type="radio" name={`${id}-kind`} checked={value.kind === "expert"} onChange={() => onChange({ kind: "expert", count: 120 })} className="accent-[var(--lg-accent)]" />
        Scripted-expert demonstrations, drawn fresh for every run
      </label>
      {value.kind === "expert" && (
        <div className="ml-6 w-40">
          <Field label="Demonstrations per run" htmlFor={`${id}-count`}>
            <TextInput id={`${id}-count`} type="number" min={20} max={2000} value={value.count} onChange={(e) => onChange({ kind: "expert", count: Number(e.target.value) })} />
          </Field>
        </div>
      )}
      <label className={`flex items-center gap-2 text-sm ${usable.length ? "text-ink-2" : "text-ink-3"}`}>
        <input type="radio" name={`${id}-kind`} disabled={usable.length === 0} checked={value.kind === "snapshot"} onChange={() => usable[0] && onChange({ kind: "snapshot", digest: usable[0].digest })} className="accent-[var(--lg-accent)]" />
        A stored dataset snapshot {usable.length === 0 && "(none with demonstrations yet)"}
      </label>
      {value.kind === "snapshot" && (
        <div className="ml-6">
          <Select aria-label="Snapshot" value={value.digest} onChange={(e) => onChange({ kind: "snapshot", digest: e.target.value })}>
            {usable.map((s) => (
              <option key={s.digest} value={s.digest}>
                {s.name} v{s.version} — {s.recordCount} records ({s.id})
              </option>
            ))}
          </Select>
        </div>
      )}
    </fieldset>
  );
}
