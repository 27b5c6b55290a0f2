"use client";

// Start a training run: pick a family, and its options form is generated from that family's defaults
// (numbers, switches, text; nested settings as JSON) and checked against the family's own zod schema as you
// type, each problem shown at its field. Then the exact parent (or the untrained policy), the training
// snapshot when the family reads one, the seed and the length; the run's name, tags and agent (the built-in support
// desk unless named). Disabled, with the reason, without training:run for the agent.
import { useMemo, useState, type FormEvent } from "react";
import { useRouter } from "next/navigation";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/react";
import { useCan, useCanForSomeAgent } from "@/components/auth/me-provider";
import { ScopeNeeded } from "@/components/auth/not-allowed";
import { Card } from "@/components/ui/card";
import { Alert, Button, Field, Select, TextInput } from "@/components/ui/form";
import { useDebounced } from "@/components/ui/use-debounced";
import { fieldHint } from "@/lib/training/config-hints";

type FieldValue = string | boolean;
type Kind = "number" | "boolean" | "text" | "nullable" | "json";

const kindOf = (v: unknown): Kind => (typeof v === "number" ? "number" : typeof v === "boolean" ? "boolean" : typeof v === "string" ? "text" : v === null ? "nullable" : "json");

function initialValues(defaults: Record<string, unknown>, required: string[]): Record<string, FieldValue> {
  const out: Record<string, FieldValue> = {};
  for (const [k, v] of Object.entries(defaults)) out[k] = kindOf(v) === "boolean" ? (v as boolean) : kindOf(v) === "json" ? JSON.stringify(v) : v === null ? "" : String(v);
  for (const k of required) out[k] ??= "";
  return out;
}

/** The config object from the form's fields, or the field whose JSON does not parse. */
function buildConfig(defaults: Record<string, unknown>, values: Record<string, FieldValue>): { config: Record<string, unknown>; bad: string | null } {
  const config: Record<string, unknown> = {};
  for (const [k, raw] of Object.entries(values)) {
    const kind = Object.hasOwn(defaults, k) ? kindOf(defaults[k]) : "text";
    if (kind === "boolean") config[k] = raw;
    else if (kind === "number") config[k] = raw === "" ? undefined : Number(raw);
    else if (kind === "nullable") config[k] = raw === "" ? null : raw;
    else if (kind === "json") {
      try {
        config[k] = JSON.parse(raw as string);
      } catch {
        return { config, bad: k };
      }
    } else if (raw !== "") config[k] = raw;
  }
  return { config, bad: null };
}

export function StartRunForm() {
  const trpc = useTRPC();
  const router = useRouter();
  const [agent, setAgent] = useState("support-desk");
  const [name, setName] = useState("");
  const [tags, setTags] = useState("");
  const canRunAnywhere = useCanForSomeAgent("training:run");
  const canRun = useCan("training:run", agent.trim());
  const families = useQuery(trpc.learning.listFamilies.queryOptions());
  const snapshots = useQuery(trpc.datasets.listSnapshots.queryOptions({}));
  const [family, setFamily] = useState("ppo");
  const info = families.data?.find((f) => f.name === family);
  const defaults = useMemo(() => (info?.defaults ?? {}) as Record<string, unknown>, [info]);
  // Edits are kept per family, over that family's defaults, so switching back and forth loses nothing.
  const [edits, setEdits] = useState<Record<string, Record<string, FieldValue>>>({});
  const values = { ...initialValues(defaults, info?.required ?? []), ...edits[family] };
  const setValue = (key: string, v: FieldValue) => setEdits({ ...edits, [family]: { ...edits[family], [key]: v } });
  const [seed, setSeed] = useState("seed-1");
  const [updates, setUpdates] = useState(20);
  const [distribution, setDistribution] = useState("v2");
  const [parentId, setParentId] = useState("");
  const [parentVersion, setParentVersion] = useState("");
  const [snapshot, setSnapshot] = useState("");
  const [continual, setContinual] = useState(false);
  const [candidateEvery, setCandidateEvery] = useState(5);

  const built = buildConfig(defaults, values);
  const debounced = useDebounced(built.bad ? null : JSON.stringify(built.config));
  const check = useQuery(trpc.learning.checkFamilyConfig.queryOptions({ family: family as "ppo", config: debounced ? JSON.parse(debounced) : {} }, { enabled: !!info && debounced !== null }));
  const problems = check.data?.problems ?? [];
  const problemAt = (key: string) => problems.filter((p) => p.split(/[.:]/)[0] === key).map((p) => p.slice(p.indexOf(":") + 1).trim());
  const general = problems.filter((p) => !Object.hasOwn(values, p.split(/[.:]/)[0]!));
  const start = useMutation(trpc.trainers.startRun.mutationOptions());

  async function submit(e: FormEvent) {
    e.preventDefault();
    const run = await start
      .mutateAsync({
        agent: agent.trim(),
        name: name.trim() || null,
        tags: tags.split(",").map((t) => t.trim()).filter(Boolean),
        family: family as "ppo",
        config: built.config,
        seed,
        updates,
        distribution,
        parent: parentId ? { resourcesId: parentId, version: Number(parentVersion) || 1 } : null,
        dataSnapshotId: snapshot || null,
        continual,
        candidateEvery: continual ? candidateEvery : null,
      })
      .catch(() => null);
    if (run) router.push(`/training/${run.id}`);
  }

  const blocked = !canRun || !!built.bad || problems.length > 0 || start.isPending;
  return (
    <Card title="Run settings" description="Every learning family, its options checked against the family's own schema.">
      {!canRunAnywhere && (
        <div className="mb-3">
          <Alert tone="warn" testId="start-disabled">
            <ScopeNeeded subject="Starting a run" scope="training:run" />
          </Alert>
        </div>
      )}
      <form onSubmit={submit} aria-label="Start a training run" className="space-y-4">
        <fieldset disabled={!canRunAnywhere} className="space-y-4">
          <div className="grid gap-3 md:grid-cols-3">
            <Field label="Name" htmlFor="run-name" hint="Optional; the id is shown without one.">
              <TextInput id="run-name" value={name} maxLength={120} onChange={(e) => setName(e.target.value)} placeholder="e.g. ppo baseline" />
            </Field>
            <Field label="Tags (comma-separated)" htmlFor="run-tags" hint="Filter the runs list by any of them.">
              <TextInput id="run-tags" value={tags} onChange={(e) => setTags(e.target.value)} placeholder="baseline, lr-0.05" />
            </Field>
            <Field label="Agent" htmlFor="run-agent" hint="Whose candidates the run publishes; the built-in support desk by default." error={canRunAnywhere && !canRun ? <ScopeNeeded subject={`Starting a run for ${agent.trim() || "this agent"}`} scope="training:run" /> : undefined}>
              <TextInput id="run-agent" required value={agent} maxLength={128} onChange={(e) => setAgent(e.target.value)} />
            </Field>
          </div>
          <div className="grid gap-3 md:grid-cols-3">
            <Field label="Family" htmlFor="run-family" hint={info?.description}>
              <Select id="run-family" value={family} onChange={(e) => setFamily(e.target.value)}>
                {(families.data ?? []).map((f) => (
                  <option key={f.name} value={f.name}>
                    {f.name}
                  </option>
                ))}
              </Select>
            </Field>
            <Field label="Seed" htmlFor="run-seed">
              <TextInput id="run-seed" required value={seed} onChange={(e) => setSeed(e.target.value)} />
            </Field>
            <Field label="Updates" htmlFor="run-updates">
              <TextInput id="run-updates" type="number" min={1} max={10000} value={updates} onChange={(e) => setUpdates(Number(e.target.value))} />
            </Field>
          </div>

          <fieldset className="rounded-md border border-line p-3">
            <legend className="px-1 text-xs font-medium text-ink-2">{family} options</legend>
            <div className="grid gap-3 md:grid-cols-3" data-testid="family-options">
              {Object.entries(values).map(([key, v]) => {
                const kind = Object.hasOwn(defaults, key) ? kindOf(defaults[key]) : "text";
                const error = problemAt(key).join("; ") || (built.bad === key ? "not valid JSON" : undefined);
                const id = `opt-${key}`;
                if (kind === "boolean")
                  return (
                    <label key={key} className="flex items-center gap-2 self-end pb-2 text-sm text-ink-2" title={fieldHint(info?.fields[key])}>
                      <input id={id} type="checkbox" checked={v as boolean} onChange={(e) => setValue(key, e.target.checked)} className="accent-[var(--lg-accent)]" /> {key}
                      {error && <span className="text-xs text-fail">{error}</span>}
                    </label>
                  );
                const spec = info?.fields[key];
                const hint = [info?.required.includes(key) ? "Required" : null, fieldHint(spec), kind === "nullable" ? "empty = none" : null].filter(Boolean).join(". ") || undefined;
                return (
                  <Field key={key} label={key} htmlFor={id} error={error} hint={hint}>
                    {spec?.choices && kind === "text" ? (
                      <Select id={id} aria-describedby={`${id}-note`} value={v as string} onChange={(e) => setValue(key, e.target.value)}>
                        {spec.choices.map((c) => (
                          <option key={c}>{c}</option>
                        ))}
                      </Select>
                    ) : kind === "json" ? (
                      <textarea id={id} aria-describedby={`${id}-note`} rows={2} spellCheck={false} value={v as string} onChange={(e) => setValue(key, e.target.value)} className="w-full rounded-md border border-line bg-panel px-2 py-1.5 font-mono text-xs text-ink" />
                    ) : (
                      <TextInput id={id} aria-describedby={`${id}-note`} type={kind === "number" ? "number" : "text"} step="any" value={v as string} onChange={(e) => setValue(key, e.target.value)} />
                    )}
                  </Field>
                );
              })}
            </div>
            {general.length > 0 && <p className="mt-2 text-xs text-fail" role="alert">{general.join("; ")}</p>}
          </fieldset>

          <div className="grid gap-3 md:grid-cols-4">
            <Field label="Task distribution" htmlFor="run-distribution">
              <Select id="run-distribution" value={distribution} onChange={(e) => setDistribution(e.target.value)}>
                {["v1", "v2", "v3"].map((d) => (
                  <option key={d}>{d}</option>
                ))}
              </Select>
            </Field>
            <Field label="Parent resources id" htmlFor="run-parent" hint="Empty: the untrained starting resource.">
              <TextInput id="run-parent" placeholder="untrained" value={parentId} onChange={(e) => setParentId(e.target.value)} />
            </Field>
            <Field label="Parent version" htmlFor="run-parent-version">
              <TextInput id="run-parent-version" type="number" min={1} disabled={!parentId} value={parentVersion} onChange={(e) => setParentVersion(e.target.value)} />
            </Field>
            <Field label="Training snapshot" htmlFor="run-snapshot" hint={info?.reads.length ? `Needs ${info.reads.join(" and ")} records.` : "Not needed: learns from its own experience."}>
              <Select id="run-snapshot" value={snapshot} onChange={(e) => setSnapshot(e.target.value)}>
                <option value="">none</option>
                {(snapshots.data ?? []).map((s) => (
                  <option key={s.id} value={s.id}>
                    {s.name} v{s.version} ({s.kinds.join(", ")})
                  </option>
                ))}
              </Select>
            </Field>
          </div>
          <div className="flex flex-wrap items-end gap-4">
            <label className="flex items-center gap-2 text-sm text-ink-2">
              <input type="checkbox" checked={continual} onChange={(e) => setContinual(e.target.checked)} className="accent-[var(--lg-accent)]" /> Continual: subscribe to the gate (publish candidates as it goes; pause on the stop conditions)
            </label>
            {continual && (
              <Field label="Candidate every (updates)" htmlFor="run-candidate-every">
                <TextInput id="run-candidate-every" type="number" min={1} value={candidateEvery} onChange={(e) => setCandidateEvery(Number(e.target.value))} />
              </Field>
            )}
          </div>
        </fieldset>
        {start.error && <Alert tone="fail">{start.error.message}</Alert>}
        <Button type="submit" disabled={blocked} title={problems.length ? "fix the options first" : undefined}>
          {start.isPending ? "Starting…" : "Start run"}
        </Button>
      </form>
    </Card>
  );
}
