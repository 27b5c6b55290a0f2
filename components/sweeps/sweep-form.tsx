"use client";

// Start a sweep: a policy family with its base config, the parameters to vary (each a list of values or a
// numeric range, by dotted path into the config), grid or random, and the seeds per config. Every config
// becomes ordinary training runs; the server checks each against the family's schema before recording any.
import { useCallback, useState, type FormEvent } from "react";
import { useRouter } from "next/navigation";
import { useMutation, useQuery } from "@tanstack/react-query";
import { Plus, Trash2 } from "lucide-react";
import { useTRPC } from "@/components/trpc/react";
import { useCan } from "@/components/auth/me-provider";
import { NotAllowedNote } from "@/components/auth/not-allowed";
import { Card } from "@/components/ui/card";
import { Alert, Button, Field, Select, TextInput } from "@/components/ui/form";
import { errorText, FamilyConfigField, parseConfig, type FamilyConfigValue } from "@/components/evaluations/family-config-field";

type Param = { path: string; kind: "values" | "range"; values: string; min: string; max: string; scale: "linear" | "log"; integer: boolean; points: string };
const NEW_PARAM: Param = { path: "", kind: "values", values: "", min: "", max: "", scale: "linear", integer: false, points: "3" };

/** "0.01, 0.1, adam, true" → [0.01, 0.1, "adam", true]. */
const parseValues = (text: string) =>
  text
    .split(",")
    .map((v) => v.trim())
    .filter(Boolean)
    .map((v) => (v === "true" ? true : v === "false" ? false : v !== "" && Number.isFinite(Number(v)) ? Number(v) : v));

function toParam(p: Param) {
  return p.kind === "values" ? { kind: "values" as const, path: p.path.trim(), values: parseValues(p.values) } : { kind: "range" as const, path: p.path.trim(), min: Number(p.min), max: Number(p.max), scale: p.scale, integer: p.integer, points: Number(p.points) };
}

function ParamRow({ p, i, mode, onChange, onRemove }: { p: Param; i: number; mode: "grid" | "random"; onChange: (p: Param) => void; onRemove: () => void }) {
  const id = `sweep-param-${i}`;
  return (
    <div className="grid gap-3 rounded-md border border-line p-3 md:grid-cols-[1.2fr_8rem_2fr_auto]" data-testid="sweep-param">
      <Field label="Config path" htmlFor={`${id}-path`}>
        <TextInput id={`${id}-path`} required placeholder="learningRate" value={p.path} onChange={(e) => onChange({ ...p, path: e.target.value })} />
      </Field>
      <Field label="Kind" htmlFor={`${id}-kind`}>
        <Select id={`${id}-kind`} value={p.kind} onChange={(e) => onChange({ ...p, kind: e.target.value as Param["kind"] })}>
          <option value="values">values</option>
          <option value="range">range</option>
        </Select>
      </Field>
      {p.kind === "values" ? (
        <Field label="Values (comma-separated)" htmlFor={`${id}-values`}>
          <TextInput id={`${id}-values`} required placeholder="0.01, 0.05, 0.1" value={p.values} onChange={(e) => onChange({ ...p, values: e.target.value })} />
        </Field>
      ) : (
        <div className="grid grid-cols-2 gap-2 sm:grid-cols-4">
          <Field label="Min" htmlFor={`${id}-min`}>
            <TextInput id={`${id}-min`} required type="number" step="any" value={p.min} onChange={(e) => onChange({ ...p, min: e.target.value })} />
          </Field>
          <Field label="Max" htmlFor={`${id}-max`}>
            <TextInput id={`${id}-max`} required type="number" step="any" value={p.max} onChange={(e) => onChange({ ...p, max: e.target.value })} />
          </Field>
          <Field label="Scale" htmlFor={`${id}-scale`}>
            <Select id={`${id}-scale`} value={p.scale} onChange={(e) => onChange({ ...p, scale: e.target.value as Param["scale"] })}>
              <option value="linear">linear</option>
              <option value="log">log</option>
            </Select>
          </Field>
          {mode === "grid" ? (
            <Field label="Points" htmlFor={`${id}-points`}>
              <TextInput id={`${id}-points`} type="number" min={2} max={10} value={p.points} onChange={(e) => onChange({ ...p, points: e.target.value })} />
            </Field>
          ) : (
            <label className="flex items-end gap-2 pb-2 text-xs text-ink-2">
              <input type="checkbox" checked={p.integer} onChange={(e) => onChange({ ...p, integer: e.target.checked })} /> whole numbers
            </label>
          )}
        </div>
      )}
      <div className="flex items-end">
        <Button variant="ghost" aria-label={`Remove parameter ${i + 1}`} onClick={onRemove}>
          <Trash2 className="h-4 w-4" />
        </Button>
      </div>
    </div>
  );
}

export function SweepForm() {
  const trpc = useTRPC();
  const router = useRouter();
  const canRun = useCan("training:run");
  const snapshots = useQuery(trpc.datasets.listSnapshots.queryOptions({}));
  const [base, setBase] = useState<FamilyConfigValue>({ family: "curriculum", configText: '{ "episodesPerUpdate": 24 }', updates: 10 });
  const [problems, setProblems] = useState<string[]>([]);
  const onProblems = useCallback((p: string[]) => setProblems(p), []);
  const [mode, setMode] = useState<"grid" | "random">("grid");
  const [params, setParams] = useState<Param[]>([{ ...NEW_PARAM, path: "ppo.learningRate", values: "0.02, 0.05, 0.1" }]);
  const [samples, setSamples] = useState(8);
  const [seeds, setSeeds] = useState(3);
  const [validation, setValidation] = useState(100);
  const [snapshot, setSnapshot] = useState("");
  const [seed, setSeed] = useState("sweep");
  const [name, setName] = useState("");
  const [error, setError] = useState<string | null>(null);
  const start = useMutation(trpc.sweeps.start.mutationOptions());

  const configs = mode === "random" ? samples : params.reduce((n, p) => n * (p.kind === "values" ? Math.max(1, parseValues(p.values).length) : Math.max(2, Number(p.points) || 3)), 1);
  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    const parsed = parseConfig(base.configText);
    if (!parsed.ok) return setError(parsed.problem);
    try {
      const { id } = await start.mutateAsync({
        name: name.trim() || undefined,
        family: base.family as "curriculum",
        baseConfig: parsed.value,
        updates: base.updates,
        space: { mode, params: params.map(toParam), samples },
        seedsPerConfig: seeds,
        heldOutCases: validation,
        seed,
        dataSnapshotId: snapshot || null,
      });
      router.push(`/training/sweeps/${id}`);
    } catch (err) {
      setError(errorText(err));
    }
  }

  return (
    <form onSubmit={submit} aria-label="Start a sweep" className="space-y-4">
      <div className="grid gap-4 lg:grid-cols-2">
        <Card title="Family and base config" description="Every point of the sweep starts from this config; the swept paths are set on top.">
          <FamilyConfigField id="sweep-base" value={base} onChange={setBase} onProblems={onProblems} />
        </Card>
        <Card title="Runs" description="Each config trains once per seed, as ordinary runs the trainer workers pick up. Ranked on the trainer's validation split, never on the gate's locked exam.">
          <div className="grid gap-3 sm:grid-cols-2">
            <Field label="Name (optional)" htmlFor="sweep-name">
              <TextInput id="sweep-name" maxLength={120} value={name} onChange={(e) => setName(e.target.value)} />
            </Field>
            <Field label="Seed" htmlFor="sweep-seed" hint="Run seeds are <seed>/c<config>/s<k>.">
              <TextInput id="sweep-seed" required maxLength={100} value={seed} onChange={(e) => setSeed(e.target.value)} />
            </Field>
            <Field label="Seeds per config" htmlFor="sweep-seeds" hint="At least 2 for an interval; 3–5 to rank with some confidence.">
              <TextInput id="sweep-seeds" type="number" min={1} max={10} value={seeds} onChange={(e) => setSeeds(Number(e.target.value))} />
            </Field>
            <Field label="Validation tasks" htmlFor="sweep-validation">
              <TextInput id="sweep-validation" type="number" min={20} max={2000} value={validation} onChange={(e) => setValidation(Number(e.target.value))} />
            </Field>
            <Field label="Training snapshot" htmlFor="sweep-snapshot" hint="For families that read records.">
              <Select id="sweep-snapshot" value={snapshot} onChange={(e) => setSnapshot(e.target.value)}>
                <option value="">none</option>
                {(snapshots.data ?? []).map((s) => (
                  <option key={s.id} value={s.id}>
                    {s.name} ({s.recordCount} records)
                  </option>
                ))}
              </Select>
            </Field>
          </div>
        </Card>
      </div>
      <Card
        title="Space"
        description="Dotted paths into the family's config (e.g. ppo.learningRate). A grid takes every combination; a random sweep draws distinct configs, the same ones for the same seed."
        actions={
          <div className="flex items-center gap-2">
            <Select aria-label="Mode" value={mode} onChange={(e) => setMode(e.target.value as typeof mode)} className="w-auto">
              <option value="grid">grid</option>
              <option value="random">random</option>
            </Select>
            {mode === "random" && <TextInput aria-label="Samples" type="number" min={1} max={32} value={samples} onChange={(e) => setSamples(Number(e.target.value))} className="w-20" />}
          </div>
        }
      >
        <div className="space-y-3">
          {params.map((p, i) => (
            <ParamRow key={i} p={p} i={i} mode={mode} onChange={(next) => setParams(params.map((x, j) => (j === i ? next : x)))} onRemove={() => setParams(params.filter((_, j) => j !== i))} />
          ))}
          {params.length < 6 && (
            <Button variant="secondary" onClick={() => setParams([...params, NEW_PARAM])}>
              <Plus className="h-4 w-4" /> Add a parameter
            </Button>
          )}
        </div>
      </Card>
      {error && <Alert tone="fail" testId="sweep-error">{error}</Alert>}
      <div className="flex flex-wrap items-center justify-end gap-3">
        {!canRun && <NotAllowedNote subject="Starting a sweep" scope="training:run" />}
        {problems.length > 0 && <span className="text-xs text-fail">Fix the base config first.</span>}
        <Button type="submit" disabled={!canRun || start.isPending || problems.length > 0 || params.length === 0} data-testid="sweep-submit">
          {start.isPending ? "Starting…" : `Start sweep (${configs} config${configs === 1 ? "" : "s"} × ${seeds} seed${seeds === 1 ? "" : "s"} = ${configs * seeds} runs)`}
        </Button>
      </div>
    </form>
  );
}
