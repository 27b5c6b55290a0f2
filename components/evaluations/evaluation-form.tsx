"use client";

// Start an evaluation: a family config (trained here) or a stored policy, and the protocols to run.
import { useCallback, useState, type FormEvent } from "react";
import { useRouter } from "next/navigation";
import { useMutation } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/react";
import { Card } from "@/components/ui/card";
import { Alert, Button, Field, Select, TextInput } from "@/components/ui/form";
import { DataSourceField, type DataSourceValue } from "./data-source-field";
import { errorText, FamilyConfigField, parseConfig, type FamilyConfigValue } from "./family-config-field";

const PROTOCOLS = [
  { key: "held-out", label: "Held-out", hint: "the locked held-out tasks: success rate and quality" },
  { key: "k-fold", label: "k-fold cross-validation", hint: "trains on k − 1 folds of the demonstrations, tests on the last (family configs only)" },
  { key: "temporal", label: "Temporal", hint: "trains on the earlier demonstrations, tests on the later ones (family configs only)" },
  { key: "domain-transfer", label: "Domain transfer", hint: "trained on one domain, scored on every domain" },
  { key: "few-shot", label: "Few-shot", hint: "a few gradient steps on one domain: adaptation speed and retention" },
  { key: "adversarial", label: "Adversarial", hint: "perturbed task features: how much reward it costs" },
] as const;
type ProtocolKey = (typeof PROTOCOLS)[number]["key"];
const DOMAINS = ["self-serve", "incident", "protected"] as const;

export function EvaluationForm() {
  const trpc = useTRPC();
  const router = useRouter();
  const [subjectKind, setSubjectKind] = useState<"family" | "resource">("family");
  const [family, setFamily] = useState<FamilyConfigValue>({ family: "supervised", configText: "", updates: 30 });
  const [resource, setResource] = useState({ resourcesId: "", version: 1 });
  const [problems, setProblems] = useState<string[]>([]);
  const [protocols, setProtocols] = useState<ProtocolKey[]>(["held-out", "k-fold", "domain-transfer", "few-shot", "adversarial"]);
  const [data, setData] = useState<DataSourceValue>({ kind: "expert", count: 240 });
  const [folds, setFolds] = useState(5);
  const [source, setSource] = useState<(typeof DOMAINS)[number]>("self-serve");
  const [fewShotDomain, setFewShotDomain] = useState<(typeof DOMAINS)[number]>("incident");
  const [heldOut, setHeldOut] = useState(200);
  const [error, setError] = useState<string | null>(null);
  const start = useMutation(trpc.evaluations.start.mutationOptions());
  const onProblems = useCallback((p: string[]) => setProblems(p), []);

  const toggle = (p: ProtocolKey) => setProtocols((cur) => (cur.includes(p) ? cur.filter((x) => x !== p) : [...cur, p]));

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    const subject =
      subjectKind === "family"
        ? { kind: "family" as const, family: family.family as "supervised", config: (parseConfig(family.configText) as { value: Record<string, unknown> }).value, updates: family.updates }
        : { kind: "resource" as const, resourcesId: resource.resourcesId.trim(), version: resource.version };
    try {
      const { id } = await start.mutateAsync({ subject, protocols, data, folds, transferSource: source, fewShot: { domain: fewShotDomain, support: 10, steps: 10, learningRate: 0.5 }, heldOutSize: heldOut });
      router.push(`/evaluations/${id}`);
    } catch (err) {
      setError(errorText(err));
    }
  }

  const blocked = (subjectKind === "family" && problems.length > 0) || protocols.length === 0;
  return (
    <form onSubmit={submit} aria-label="Start an evaluation" className="space-y-4">
      <div className="grid gap-4 lg:grid-cols-2">
        <Card title="What to evaluate">
          <div className="space-y-3">
            <div className="flex gap-4 text-sm text-ink-2">
              <label className="flex items-center gap-2">
                <input type="radio" name="subject" checked={subjectKind === "family"} onChange={() => setSubjectKind("family")} className="accent-[var(--lg-accent)]" /> A family config (trained here)
              </label>
              <label className="flex items-center gap-2">
                <input type="radio" name="subject" checked={subjectKind === "resource"} onChange={() => setSubjectKind("resource")} className="accent-[var(--lg-accent)]" /> A stored policy
              </label>
            </div>
            {subjectKind === "family" ? (
              <FamilyConfigField id="ev" value={family} onChange={setFamily} onProblems={onProblems} />
            ) : (
              <div className="grid grid-cols-[1fr_8rem] gap-3">
                <Field label="Resources id" htmlFor="ev-resource" hint="A resources version holding a lightgate_policy entry.">
                  <TextInput id="ev-resource" required value={resource.resourcesId} onChange={(e) => setResource({ ...resource, resourcesId: e.target.value })} />
                </Field>
                <Field label="Version" htmlFor="ev-version">
                  <TextInput id="ev-version" type="number" min={1} value={resource.version} onChange={(e) => setResource({ ...resource, version: Number(e.target.value) })} />
                </Field>
              </div>
            )}
          </div>
        </Card>
        <Card title="Protocols">
          <fieldset className="space-y-2">
            <legend className="sr-only">Protocols</legend>
            {PROTOCOLS.map((p) => (
              <label key={p.key} className="flex items-start gap-2 text-sm text-ink-2">
                <input type="checkbox" checked={protocols.includes(p.key)} onChange={() => toggle(p.key)} className="mt-1 accent-[var(--lg-accent)]" />
                <span>
                  <span className="text-ink">{p.label}</span> <span className="text-xs text-ink-3">— {p.hint}</span>
                </span>
              </label>
            ))}
          </fieldset>
          <div className="mt-4 grid grid-cols-2 gap-3 md:grid-cols-4">
            <Field label="Folds (k)" htmlFor="ev-folds">
              <TextInput id="ev-folds" type="number" min={2} max={10} value={folds} onChange={(e) => setFolds(Number(e.target.value))} />
            </Field>
            <Field label="Transfer from" htmlFor="ev-source">
              <Select id="ev-source" value={source} onChange={(e) => setSource(e.target.value as typeof source)}>
                {DOMAINS.map((d) => <option key={d}>{d}</option>)}
              </Select>
            </Field>
            <Field label="Few-shot domain" htmlFor="ev-fewshot">
              <Select id="ev-fewshot" value={fewShotDomain} onChange={(e) => setFewShotDomain(e.target.value as typeof fewShotDomain)}>
                {DOMAINS.map((d) => <option key={d}>{d}</option>)}
              </Select>
            </Field>
            <Field label="Held-out tasks" htmlFor="ev-heldout">
              <TextInput id="ev-heldout" type="number" min={20} max={1000} value={heldOut} onChange={(e) => setHeldOut(Number(e.target.value))} />
            </Field>
          </div>
        </Card>
      </div>
      <Card>
        <DataSourceField id="ev-data" value={data} onChange={setData} />
      </Card>
      {error && <Alert tone="fail" testId="evaluation-error">{error}</Alert>}
      <div className="flex items-center justify-end gap-3">
        {blocked && <span className="text-xs text-fail">{protocols.length === 0 ? "Pick at least one protocol." : "Fix the config problems above first."}</span>}
        <Button type="submit" disabled={start.isPending || blocked}>
          {start.isPending ? "Starting…" : "Start evaluation"}
        </Button>
      </div>
    </form>
  );
}
