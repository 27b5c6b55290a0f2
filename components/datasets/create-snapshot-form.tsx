"use client";

// Make a snapshot from the dashboard: records (pasted, or a JSON / JSONL file) or an existing snapshot
// (?from=<id>), through the pipeline steps ticked here; the server validates every record and step
// (datasets.create, training:run) and the page opens the new snapshot.
import { useState, type FormEvent } from "react";
import { useRouter } from "next/navigation";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useCan } from "@/components/auth/me-provider";
import { useTRPC } from "@/components/trpc/react";
import { Card } from "@/components/ui/card";
import { Alert, Button, Field, Select, TextInput } from "@/components/ui/form";
import { useUrlState } from "@/components/ui/url-state";
import { needsScope } from "@/lib/auth/not-allowed";

const textarea = "w-full rounded-md border border-line bg-panel px-3 py-2 font-mono text-xs text-ink focus:border-accent focus:ring-2 focus:ring-accent/25 focus:outline-none disabled:opacity-60";
const STEPS = [
  { step: "clean", label: "Clean", hint: "NFKC, control characters" },
  { step: "quality-filter", label: "Quality filter", hint: "quality ≥ 0.7" },
  { step: "deduplicate", label: "Deduplicate", hint: "exact and near (Jaccard ≥ 0.85)" },
  { step: "anonymize", label: "Anonymize", hint: "e-mail, phone, IBAN, cards, IPs, addresses, names" },
  { step: "augment", label: "Augment", hint: "one noisy copy per demonstration" },
] as const;

/** A JSON array, an object with `records`, or JSON Lines. */
function parseRecords(text: string): { records: unknown[] | null; error: string | null } {
  const t = text.trim();
  if (!t) return { records: null, error: "paste the records or load a file" };
  try {
    const v = JSON.parse(t) as unknown;
    const list = Array.isArray(v) ? v : (v as { records?: unknown }).records;
    return Array.isArray(list) ? { records: list, error: null } : { records: null, error: "a JSON array of records, an object with a records array, or JSON Lines" };
  } catch {
    try {
      return { records: t.split(/\r?\n/).filter((l) => l.trim()).map((l) => JSON.parse(l) as unknown), error: null };
    } catch (e) {
      return { records: null, error: `not valid JSON or JSON Lines: ${(e as Error).message}` };
    }
  }
}

export function CreateSnapshotForm() {
  const trpc = useTRPC();
  const router = useRouter();
  const url = useUrlState();
  const canCreate = useCan("training:run");
  const snapshots = useQuery(trpc.datasets.listSnapshots.queryOptions({}));
  const [source, setSource] = useState<"snapshot" | "records">(url.get("from") ? "snapshot" : "records");
  const [from, setFrom] = useState(url.get("from") ?? "");
  const [name, setName] = useState("");
  const [text, setText] = useState("");
  const [steps, setSteps] = useState<string[]>(["clean", "anonymize", "deduplicate"]);
  const create = useMutation(trpc.datasets.create.mutationOptions());
  const parsed = source === "records" ? parseRecords(text) : { records: null, error: null };
  const fromId = from || snapshots.data?.[0]?.id || "";

  async function submit(e: FormEvent) {
    e.preventDefault();
    const done = await create
      .mutateAsync({
        name,
        from: source === "snapshot" ? { kind: "snapshot", id: fromId } : { kind: "records", records: parsed.records ?? [] },
        steps: STEPS.filter((s) => steps.includes(s.step)).map((s) => ({ step: s.step }) as never),
      })
      .catch(() => null);
    if (done) router.push(`/datasets/${done.id}`);
  }

  return (
    <Card title="New snapshot" description="Content-addressed: the same records again give the existing snapshot. Its lineage records the source and every step with its counts.">
      {!canCreate && <div className="mb-3"><Alert tone="warn" testId="create-disabled">{needsScope("Making a snapshot", "training:run")} You can look at every snapshot.</Alert></div>}
      <form onSubmit={submit} aria-label="Create a snapshot" className="space-y-4">
        <fieldset disabled={!canCreate || create.isPending} className="space-y-4">
          <div className="grid gap-3 md:grid-cols-2">
            <Field label="Name" htmlFor="snapshot-name" hint="lowercase, digits and / _ . - ; versions count up per name">
              <TextInput id="snapshot-name" required value={name} onChange={(e) => setName(e.target.value)} placeholder="support-desk/demos" />
            </Field>
            <Field label="Source" htmlFor="snapshot-source">
              <Select id="snapshot-source" value={source} onChange={(e) => setSource(e.target.value as "snapshot" | "records")}>
                <option value="records">Records (paste or load a file)</option>
                <option value="snapshot">An existing snapshot</option>
              </Select>
            </Field>
          </div>
          {source === "snapshot" ? (
            <Field label="Snapshot" htmlFor="snapshot-from" hint="its records go through the steps below; it becomes the parent">
              <Select id="snapshot-from" value={fromId} onChange={(e) => setFrom(e.target.value)}>
                {(snapshots.data ?? []).map((s) => <option key={s.id} value={s.id}>{s.name} v{s.version} · {s.recordCount} records</option>)}
              </Select>
            </Field>
          ) : (
            <>
              <Field label="Records (JSON array or JSON Lines)" htmlFor="snapshot-records" error={text ? (parsed.error ?? undefined) : undefined} hint={parsed.records ? `${parsed.records.length} records` : "demonstration, interaction, feedback or task records, each with a unique id"}>
                <textarea id="snapshot-records" rows={10} spellCheck={false} className={textarea} value={text} onChange={(e) => setText(e.target.value)} />
              </Field>
              <Field label="…or load a file" htmlFor="snapshot-file">
                <input id="snapshot-file" type="file" accept=".json,.jsonl,application/json" className="block text-xs text-ink-2" onChange={async (e) => { const f = e.target.files?.[0]; if (f) setText(await f.text()); }} />
              </Field>
            </>
          )}
          <fieldset className="rounded-md border border-line p-3">
            <legend className="px-1 text-xs font-medium text-ink-2">Pipeline steps, in this order</legend>
            <div className="grid gap-2 sm:grid-cols-2">
              {STEPS.map((s) => (
                <label key={s.step} className="flex items-start gap-2 text-sm text-ink">
                  <input type="checkbox" className="mt-1" checked={steps.includes(s.step)} onChange={(e) => setSteps(e.target.checked ? [...steps, s.step] : steps.filter((x) => x !== s.step))} />
                  <span>{s.label} <span className="block text-xs text-ink-3">{s.hint}</span></span>
                </label>
              ))}
            </div>
          </fieldset>
          {create.error && <Alert tone="fail" testId="create-error">{create.error.message}</Alert>}
          <Button type="submit" data-testid="create-snapshot" disabled={!name || (source === "records" ? !parsed.records : !fromId)}>{create.isPending ? "Creating…" : "Create snapshot"}</Button>
        </fieldset>
      </form>
    </Card>
  );
}
