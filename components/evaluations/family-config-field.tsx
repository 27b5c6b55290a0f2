"use client";

// One training configuration: a learning family that makes a policy, its config as JSON (prefilled with
// the family's defaults, checked against the family's schema as you type) and the number of updates.
import { useEffect, useMemo } from "react";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/react";
import { Field, Select, TextInput } from "@/components/ui/form";
import { useDebounced } from "@/components/ui/use-debounced";

export type FamilyConfigValue = { family: string; configText: string; updates: number };

/** The config text as an object, or the JSON problem. */
export function parseConfig(text: string): { ok: true; value: Record<string, unknown> } | { ok: false; problem: string } {
  if (!text.trim()) return { ok: true, value: {} };
  try {
    const v = JSON.parse(text) as unknown;
    if (!v || typeof v !== "object" || Array.isArray(v)) return { ok: false, problem: "config must be a JSON object" };
    return { ok: true, value: v as Record<string, unknown> };
  } catch (e) {
    return { ok: false, problem: `config is not JSON: ${(e as Error).message}` };
  }
}

/** Problems with this config (JSON or schema), empty when it is valid; reported to the parent form. */
export function FamilyConfigField({ id, value, onChange, onProblems }: { id: string; value: FamilyConfigValue; onChange: (v: FamilyConfigValue) => void; onProblems: (problems: string[]) => void }) {
  const trpc = useTRPC();
  const families = useQuery(trpc.learning.listFamilies.queryOptions());
  const policyFamilies = useMemo(() => (families.data ?? []).filter((f) => f.resourceKind === "policy"), [families.data]);
  const info = policyFamilies.find((f) => f.name === value.family);
  const parsed = parseConfig(value.configText);
  const debounced = useDebounced(parsed.ok ? JSON.stringify(parsed.value) : null);
  const check = useQuery(trpc.learning.checkFamilyConfig.queryOptions({ family: value.family as "supervised", config: debounced ? JSON.parse(debounced) : {} }, { enabled: debounced !== null }));
  const problems = parsed.ok ? (check.data?.problems ?? []) : [parsed.problem];
  const key = problems.join("\n");
  useEffect(() => onProblems(key ? key.split("\n") : []), [key, onProblems]);

  return (
    <div className="space-y-3">
      <div className="grid grid-cols-[1fr_8rem] gap-3">
        <Field label="Family" htmlFor={`${id}-family`} hint={info?.description}>
          <Select
            id={`${id}-family`}
            value={value.family}
            onChange={(e) => {
              const f = policyFamilies.find((x) => x.name === e.target.value);
              onChange({ ...value, family: e.target.value, configText: f?.required.length ? JSON.stringify(Object.fromEntries(f.required.map((k) => [k, ""])), null, 2) : "" });
            }}
          >
            {policyFamilies.map((f) => (
              <option key={f.name} value={f.name}>
                {f.name}
              </option>
            ))}
          </Select>
        </Field>
        <Field label="Updates" htmlFor={`${id}-updates`}>
          <TextInput id={`${id}-updates`} type="number" min={1} max={200} value={value.updates} onChange={(e) => onChange({ ...value, updates: Number(e.target.value) })} />
        </Field>
      </div>
      <Field
        label="Config (JSON; fields left out take the family's defaults)"
        htmlFor={`${id}-config`}
        error={problems.length ? problems.join("; ") : undefined}
        hint={info?.reads.length ? `Reads ${info.reads.join(" and ")} records.` : "Learns from its own experience in the environment."}
      >
        <textarea
          id={`${id}-config`}
          spellCheck={false}
          rows={5}
          placeholder={info?.defaults ? `defaults:\n${JSON.stringify(info.defaults, null, 2)}` : "{}"}
          value={value.configText}
          onChange={(e) => onChange({ ...value, configText: e.target.value })}
          aria-invalid={problems.length > 0}
          className="w-full rounded-md border border-line bg-panel px-3 py-2 font-mono text-xs text-ink focus:border-accent focus:ring-2 focus:ring-accent/25 focus:outline-none aria-[invalid=true]:border-fail"
        />
      </Field>
    </div>
  );
}

/** A tRPC error as one line: the server already says refused input as "path: message; …". */
export function errorText(err: unknown): string {
  return (err as Error).message;
}
