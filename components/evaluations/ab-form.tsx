"use client";

// Start an A/B test of two training configurations: each arm is trained once per seed and scored on the
// same evaluation tasks (never the gate's locked exam); the result page compares them with the chosen test
// (Welch, or Mann–Whitney for skewed metrics) and plans power against the difference chosen here.
import { useCallback, useState, type FormEvent } from "react";
import { useRouter } from "next/navigation";
import { useMutation } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/react";
import { Card } from "@/components/ui/card";
import { Alert, Button, Field, Select, TextInput } from "@/components/ui/form";
import { DataSourceField, type DataSourceValue } from "./data-source-field";
import { errorText, FamilyConfigField, parseConfig, type FamilyConfigValue } from "./family-config-field";

type Arm = FamilyConfigValue & { name: string };

function ArmCard({ label, arm, onChange, onProblems }: { label: "A" | "B"; arm: Arm; onChange: (a: Arm) => void; onProblems: (p: string[]) => void }) {
  const id = `arm-${label.toLowerCase()}`;
  return (
    <Card title={`Arm ${label}`} description={label === "A" ? "The baseline." : "Compared against A: differences are B − A."}>
      <div className="space-y-3">
        <Field label="Name" htmlFor={`${id}-name`}>
          <TextInput id={`${id}-name`} required maxLength={60} value={arm.name} onChange={(e) => onChange({ ...arm, name: e.target.value })} />
        </Field>
        <FamilyConfigField id={id} value={arm} onChange={(v) => onChange({ ...arm, ...v })} onProblems={onProblems} />
      </div>
    </Card>
  );
}

export function AbTestForm() {
  const trpc = useTRPC();
  const router = useRouter();
  const [a, setA] = useState<Arm>({ name: "baseline", family: "supervised", configText: "", updates: 30 });
  const [b, setB] = useState<Arm>({ name: "variant", family: "supervised", configText: "", updates: 30 });
  const [problems, setProblems] = useState<{ a: string[]; b: string[] }>({ a: [], b: [] });
  const [seeds, setSeeds] = useState(6);
  const [alpha, setAlpha] = useState("0.05");
  const [metric, setMetric] = useState<"mean-reward" | "success-rate">("mean-reward");
  const [test, setTest] = useState<"welch" | "mann-whitney">("welch");
  const [effect, setEffect] = useState("0.05");
  const [heldOut, setHeldOut] = useState(200);
  const [data, setData] = useState<DataSourceValue>({ kind: "expert", count: 120 });
  const [error, setError] = useState<string | null>(null);
  const start = useMutation(trpc.evaluations.startAbTest.mutationOptions());
  const onA = useCallback((p: string[]) => setProblems((x) => ({ ...x, a: p })), []);
  const onB = useCallback((p: string[]) => setProblems((x) => ({ ...x, b: p })), []);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    const arm = (x: Arm) => ({ name: x.name, family: x.family as "supervised", config: (parseConfig(x.configText) as { value: Record<string, unknown> }).value, updates: x.updates });
    try {
      const { id } = await start.mutateAsync({ a: arm(a), b: arm(b), seeds, alpha: Number(alpha), metric, test, effect: { [metric]: Number(effect) }, heldOutSize: heldOut, data });
      router.push(`/evaluations/${id}`);
    } catch (err) {
      setError(errorText(err));
    }
  }

  const blocked = problems.a.length > 0 || problems.b.length > 0;
  return (
    <form onSubmit={submit} aria-label="Start an A/B test" className="space-y-4">
      <div className="grid gap-4 lg:grid-cols-2">
        <ArmCard label="A" arm={a} onChange={setA} onProblems={onA} />
        <ArmCard label="B" arm={b} onChange={setB} onProblems={onB} />
      </div>
      <Card title="Test" description="Each arm trains once per seed (independent seeds per arm); every candidate is scored on the same evaluation tasks, never the gate's locked exam. With two metrics, significance is Holm-adjusted.">
        <div className="grid gap-4 md:grid-cols-3">
          <Field label="Seeds per arm (sample size)" htmlFor="ab-seeds" hint="More seeds detect smaller differences.">
            <TextInput id="ab-seeds" type="number" min={2} max={30} value={seeds} onChange={(e) => setSeeds(Number(e.target.value))} />
          </Field>
          <Field label="Significance level α" htmlFor="ab-alpha">
            <Select id="ab-alpha" value={alpha} onChange={(e) => setAlpha(e.target.value)}>
              <option value="0.01">0.01</option>
              <option value="0.05">0.05</option>
              <option value="0.1">0.10</option>
            </Select>
          </Field>
          <Field label="Headline metric" htmlFor="ab-metric">
            <Select id="ab-metric" value={metric} onChange={(e) => setMetric(e.target.value as typeof metric)}>
              <option value="mean-reward">held-out mean reward</option>
              <option value="success-rate">held-out success rate</option>
            </Select>
          </Field>
          <Field label="Test" htmlFor="ab-test" hint="Mann–Whitney compares ranks: for skewed metrics, where one failing seed drags a mean.">
            <Select id="ab-test" value={test} onChange={(e) => setTest(e.target.value as typeof test)}>
              <option value="welch">Welch&apos;s t test (means)</option>
              <option value="mann-whitney">Mann–Whitney U (ranks)</option>
            </Select>
          </Field>
          <Field label="Difference worth detecting" htmlFor="ab-effect" hint="In the headline metric's units; the result says the power and runs it needs.">
            <TextInput id="ab-effect" type="number" min={0.001} max={1} step="any" required value={effect} onChange={(e) => setEffect(e.target.value)} />
          </Field>
          <Field label="Evaluation tasks" htmlFor="ab-heldout">
            <TextInput id="ab-heldout" type="number" min={20} max={1000} value={heldOut} onChange={(e) => setHeldOut(Number(e.target.value))} />
          </Field>
        </div>
        <div className="mt-4">
          <DataSourceField id="ab-data" value={data} onChange={setData} />
        </div>
      </Card>
      {error && <Alert tone="fail" testId="ab-error">{error}</Alert>}
      <div className="flex items-center justify-end gap-3">
        {blocked && <span className="text-xs text-fail">Fix the config problems above first.</span>}
        <Button type="submit" disabled={start.isPending || blocked}>
          {start.isPending ? "Starting…" : `Start A/B test (${2 * seeds} training runs)`}
        </Button>
      </div>
    </form>
  );
}
