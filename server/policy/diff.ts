// A key-by-key diff between two versions of one registry record or published exam (lib/json/diff.ts, the
// rule the resources page uses: secret-like values masked, a change to one still shown). Exams are compared
// case by case, keyed by case id; `expected` only for callers allowed to read an exam's answers.
import type { Db, Tx } from "@/server/db/client";
import { DomainError } from "@/server/errors";
import { readDataset } from "@/server/gate-api/datasets";
import { isDatasetKind, type AreaKind } from "@/lib/registries/kinds";
import { diffJson, type DiffEntry } from "@/lib/json/diff";
import { maskSecrets } from "@/lib/json/secrets";
import { dictionary } from "@/lib/own";
import { registryEntry, type AreaVersion } from "./catalog";

/** A diff of two 10,000-case exams can run to tens of thousands of keys: the page shows the first ones. */
export const MAX_DIFF_ENTRIES = 400;
const SAMPLE_CASES = 20;

export type VersionDiff = {
  a: AreaVersion;
  b: AreaVersion;
  entries: DiffEntry[];
  /** Changed keys in all (entries holds at most MAX_DIFF_ENTRIES of them). */
  changed: number;
  unchanged: number;
  /** Version b's content: the record's body, or an exam's first cases. */
  content: unknown;
};

export type DiffInput = { kind: AreaKind; name: string; agent: string; a: string; b: string; withExpected: boolean };

async function contentOf(db: Db | Tx, kind: AreaKind, name: string, v: AreaVersion, withExpected: boolean): Promise<unknown> {
  if (v.datasetId) {
    const found = await readDataset(db, v.datasetId, withExpected);
    // Keyed by case id in a prototype-free object, so a case named `__proto__` is an ordinary key.
    const cases = dictionary<unknown>();
    for (const c of found?.cases ?? []) cases[c.id] = { input: c.input, family: c.family, protected: c.protected, ...(withExpected ? { expected: c.expected } : {}) };
    return cases;
  }
  const row = await db.registryEntry.findUnique({ where: { kind_name_agent_version: { kind, name, agent: v.agent, version: v.version } } });
  return row ? (JSON.parse(row.body) as unknown) : null;
}

export async function diffVersions(db: Db | Tx, input: DiffInput): Promise<VersionDiff> {
  const entry = await registryEntry(db, input.kind, input.name);
  if (!entry) throw new DomainError("NOT_FOUND", `name: no ${input.kind} named ${input.name.slice(0, 200)}`, "name");
  const pick = (field: "a" | "b") => {
    const v = entry.versions.find((x) => x.agent === (isDatasetKind(input.kind) ? "*" : input.agent) && x.version === input[field]);
    if (!v) throw new DomainError("NOT_FOUND", `${field}: ${input.kind} ${input.name.slice(0, 200)} has no version "${input[field].slice(0, 64)}" for agent ${input.agent.slice(0, 200)}`, field);
    return v;
  };
  const [a, b] = [pick("a"), pick("b")];
  const [before, after] = [await contentOf(db, input.kind, input.name, a, input.withExpected), await contentOf(db, input.kind, input.name, b, input.withExpected)];
  const diff = diffJson(before, after);
  let content: unknown = maskSecrets(after);
  if (b.datasetId) {
    const sample = dictionary<unknown>();
    for (const [id, c] of Object.entries(after as Record<string, unknown>).slice(0, SAMPLE_CASES)) sample[id] = c;
    content = { cases: b.caseCount, first: maskSecrets(sample) };
  }
  return { a, b, entries: diff.entries.slice(0, MAX_DIFF_ENTRIES), changed: diff.entries.length, unchanged: diff.unchanged, content };
}
