"use client";

// Publish a new version — of a registry record or of a held-out / canary exam. The body is checked as JSON
// here, then by the server (the same zod schemas and domain functions the HTTP APIs use); "Preview" shows
// what publishing would make stale, and "Publish" is enabled only for exactly what was previewed.
import { useState, type FormEvent } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useCan } from "@/components/auth/me-provider";
import { useTRPC } from "@/components/trpc/react";
import { Alert, Button, Field, Select, TextInput } from "@/components/ui/form";
import { AREA_KINDS, isDatasetKind, KIND_INFO, type AreaKind } from "@/lib/registries/kinds";
import { DatasetImpact, RegistryImpact } from "./impact-view";
import { needsScope } from "@/lib/auth/not-allowed";

const textarea = "w-full rounded-md border border-line bg-panel px-3 py-2 font-mono text-xs text-ink focus:border-accent focus:ring-2 focus:ring-accent/25 focus:outline-none disabled:opacity-60";

export const CASES_TEMPLATE = JSON.stringify([{ id: "case-1", input: { task: "…" }, family: "general", protected: false, expected: null }], null, 2);

function parse(text: string): { value: unknown; error: null } | { value: null; error: string } {
  try {
    return { value: JSON.parse(text) as unknown, error: null };
  } catch (e) {
    return { value: null, error: `not valid JSON: ${(e as Error).message}` };
  }
}

export type Published = { kind: AreaKind; name: string; version: string; agent: string };

/** `kind`/`name` fixed: a new version of that record; otherwise chosen on the form (from `initialKind`). */
export function PublishForm({ kind: fixedKind, initialKind, name: fixedName, agent: initialAgent, initialText, onPublished }: {
  kind?: AreaKind;
  initialKind?: AreaKind;
  name?: string;
  agent?: string;
  initialText: string;
  onPublished?: (published: Published) => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [kind, setKind] = useState<AreaKind>(fixedKind ?? initialKind ?? "evaluator");
  const [name, setName] = useState(fixedName ?? "");
  const [agent, setAgent] = useState(initialAgent ?? "*");
  const [version, setVersion] = useState("");
  const [text, setText] = useState(initialText);
  const [previewed, setPreviewed] = useState<string | null>(null);
  const dataset = isDatasetKind(kind);
  // Exams are instance-wide: publishing one needs policy:write for every agent, as on the HTTP API.
  const canPublish = useCan("policy:write", dataset ? null : agent === "*" ? null : agent);
  const previewRecord = useMutation(trpc.registries.previewPublish.mutationOptions());
  const previewExam = useMutation(trpc.registries.previewDataset.mutationOptions());
  const publishRecord = useMutation(trpc.registries.publish.mutationOptions());
  const publishExam = useMutation(trpc.registries.publishDataset.mutationOptions());

  const parsed = parse(text);
  const key = JSON.stringify([kind, name, agent, version, text]);
  const cases = dataset && parsed.value !== null ? (Array.isArray(parsed.value) ? parsed.value : (parsed.value as { cases?: unknown }).cases) : null;
  const recordInput = () => ({ kind: kind as Exclude<AreaKind, "held_out" | "canary">, name, agent, version: version.trim() || undefined, body: parsed.value as never });
  const examInput = () => ({ kind: kind as "held_out" | "canary", name, cases: cases as never });
  const pending = previewRecord.isPending || previewExam.isPending || publishRecord.isPending || publishExam.isPending;
  const error = (dataset ? (previewExam.error ?? publishExam.error) : (previewRecord.error ?? publishRecord.error))?.message;
  const ready = previewed === key && (dataset ? previewExam.data : previewRecord.data);

  function reset() {
    setPreviewed(null);
    previewRecord.reset();
    previewExam.reset();
    publishRecord.reset();
    publishExam.reset();
  }

  async function preview(e: FormEvent) {
    e.preventDefault();
    reset();
    const ok = dataset ? await previewExam.mutateAsync(examInput()).catch(() => null) : await previewRecord.mutateAsync(recordInput()).catch(() => null);
    if (ok) setPreviewed(key);
  }

  async function publish() {
    let published: { version: string; agent: string } | null = null;
    if (dataset) {
      const done = await publishExam.mutateAsync(examInput()).catch(() => null);
      if (done) published = { version: previewExam.data?.version ?? "", agent: "*" };
    } else {
      const done = await publishRecord.mutateAsync(recordInput()).catch(() => null);
      if (done) published = { version: done.version, agent: done.agent };
    }
    if (!published) return;
    await queryClient.invalidateQueries({ queryKey: trpc.registries.pathKey() });
    setPreviewed(null);
    onPublished?.({ kind, name, ...published });
  }

  const jsonError = parsed.error ?? (dataset && parsed.value !== null && !Array.isArray(cases) ? "the cases: a JSON array, or an object with a cases array" : null);
  return (
    <form onSubmit={preview} aria-label="Publish a new version" className="space-y-3" data-testid="publish-form">
      {!canPublish && <Alert tone="warn" testId="publish-disabled">{needsScope("Publishing", "policy:write", dataset || agent === "*" ? "every agent" : agent)} You can look at every version and diff.</Alert>}
      <fieldset disabled={!canPublish || pending} className="space-y-3">
        <div className="grid gap-3 md:grid-cols-3">
          {!fixedKind && (
            <Field label="Kind" htmlFor="publish-kind">
              <Select id="publish-kind" value={kind} onChange={(e) => { setKind(e.target.value as AreaKind); setText(isDatasetKind(e.target.value as AreaKind) ? CASES_TEMPLATE : "{}"); reset(); }}>
                {AREA_KINDS.map((k) => <option key={k} value={k}>{KIND_INFO[k].label}</option>)}
              </Select>
            </Field>
          )}
          {fixedName === undefined && (
            <Field label="Name" htmlFor="publish-name" hint={dataset ? "runs pin <agent>/held-out and <agent>/canary" : "evaluator id, tool, family…"}>
              <TextInput id="publish-name" required value={name} onChange={(e) => setName(e.target.value)} />
            </Field>
          )}
          {!dataset && (
            <>
              <Field label="Agent" htmlFor="publish-agent" hint="* applies to every agent; an agent's own record wins">
                <TextInput id="publish-agent" required value={agent} onChange={(e) => setAgent(e.target.value)} />
              </Field>
              <Field label="Version label" htmlFor="publish-version" hint="empty: the next number; never latest, head…">
                <TextInput id="publish-version" value={version} onChange={(e) => setVersion(e.target.value)} placeholder="next" />
              </Field>
            </>
          )}
        </div>
        <Field label={dataset ? "Cases (JSON)" : "Body (JSON)"} htmlFor="publish-body" error={jsonError ?? undefined} hint={dataset ? "id, input, family, protected, expected — up to 10,000 cases, ids unique" : "checked against the kind's schema on the server"}>
          <textarea id="publish-body" rows={12} spellCheck={false} className={textarea} value={text} onChange={(e) => setText(e.target.value)} />
        </Field>
        {dataset && (
          <Field label="…or load a file" htmlFor="publish-file">
            <input id="publish-file" type="file" accept="application/json,.json" className="block text-xs text-ink-2" onChange={async (e) => { const f = e.target.files?.[0]; if (f) setText(await f.text()); }} />
          </Field>
        )}
        {error && <Alert tone="fail" testId="publish-error">{error}</Alert>}
        <div className="flex flex-wrap gap-2">
          <Button type="submit" variant="secondary" disabled={!!jsonError || !name.trim()}>Preview what goes stale</Button>
          <Button onClick={publish} disabled={!ready} data-testid="publish-submit" title={ready ? undefined : "Preview first: publishing is enabled for exactly what was previewed"}>
            {ready ? `Publish v${dataset ? (previewExam.data?.version ?? "") : (previewRecord.data?.version ?? "")}` : "Publish"}
          </Button>
        </div>
      </fieldset>
      {previewed === key && previewRecord.data && !dataset && <RegistryImpact impact={previewRecord.data} />}
      {previewed === key && previewExam.data && dataset && <DatasetImpact impact={previewExam.data} />}
    </form>
  );
}
