// Every page of the dashboard, for the page sweep (e2e/every-page.spec.ts). Static pages are found on disk
// (app/**/page.tsx), so a page someone adds is swept without touching this file; a dynamic page needs one
// line in SAMPLES saying which ids to open (the sweep fails and names the route until it has one).
import fs from "node:fs";
import path from "node:path";
import type { Database } from "@/server/db/client";

/** Routes as Next.js serves them: route groups dropped, dynamic segments kept as `[name]`. */
export function appRoutes(root = path.join(process.cwd(), "app")): string[] {
  const out: string[] = [];
  const walk = (dir: string, segments: string[]) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) walk(path.join(dir, e.name), /^\(.*\)$/.test(e.name) ? segments : [...segments, e.name]);
      else if (e.name === "page.tsx") out.push(`/${segments.join("/")}`);
    }
  };
  walk(root, []);
  return out.sort();
}

/** Pages a visitor without a session sees (the rest send them to sign-in). */
export const PUBLIC_ROUTES = ["/sign-in", "/setup", "/status"];

/** Query-string states worth their own visit (forms and tabs picked by the URL). */
export const EXTRA_PATHS = ["/evaluations/new?kind=ab", "/candidates?agent=support-desk"];

/** Each sample is the id to open, or — for a route with several dynamic segments — one value per segment. */
type Sampler = (database: Database) => Promise<(string | string[])[]>;
const firstIds = async (rows: Promise<{ id: string }[]>) => (await rows).map((r) => r.id);

const firstAgent = async (database: Database) => (await database.db.candidate.findMany({ distinct: ["agent"], orderBy: { agent: "asc" }, take: 1, select: { agent: true } })).map((r) => r.agent);

/** Two versions of the first agent side by side (the compare page's query names them), when it has two. */
async function comparePaths(database: Database): Promise<string[]> {
  const [agent] = await firstAgent(database);
  if (!agent) return [];
  const two = await database.db.candidate.findMany({ where: { agent }, orderBy: [{ createdAt: "desc" }, { id: "asc" }], take: 2, select: { id: true } });
  return two.length === 2 ? [`/agents/${encodeURIComponent(agent)}/compare?a=${encodeURIComponent(two[1]!.id)}&b=${encodeURIComponent(two[0]!.id)}`] : [];
}

/** For each dynamic route, the ids to open (a few where the page differs a lot between records). */
export const SAMPLES: Record<string, Sampler> = {
  "/candidates/[id]": async (database) => {
    // The reference candidates A (passing) and D (an unresolvable parent) when seeded, else the newest.
    const rows = await database.db.candidate.findMany({ orderBy: { createdAt: "desc" }, select: { id: true, resourcesId: true } });
    const { candidateLabel } = await import("@/server/receipts/candidate-names");
    const wanted = rows.filter((r) => ["reference A", "reference D"].includes(candidateLabel({ agent: "", version: 1, resourcesId: r.resourcesId }).label ?? ""));
    return (wanted.length ? wanted : rows.slice(0, 1)).map((r) => r.id);
  },
  "/agents/[agent]": firstAgent,
  // Without ?a=&b= the compare page is its picker; COMPARE_PATH below opens a comparison.
  "/agents/[agent]/compare": firstAgent,
  // A case the candidate failed (a regressed protected case of reference C when seeded), from the newest stage 3s.
  "/candidates/[id]/cases/[caseId]": async (database) => {
    const links = await database.db.receiptLink.findMany({ where: { kind: "stage3" }, orderBy: { sealedAt: "desc" }, take: 20, select: { candidateId: true, content: true } });
    const { caseRollouts } = await import("@/server/receipts/case-rollouts");
    for (const l of links) {
      const cases = (JSON.parse(l.content) as { lockedGate?: { candidate: { cases: { caseId: string; passed: boolean }[] } } }).lockedGate?.candidate.cases ?? [];
      const c = cases.find((x) => !x.passed) ?? cases[0];
      if (c && (await caseRollouts(database, l.candidateId, c.caseId).then(() => true, () => false))) return [[l.candidateId, c.caseId]];
    }
    return [];
  },
  "/training/[runId]": (database) => firstIds(database.db.trainingRun.findMany({ orderBy: { createdAt: "desc" }, take: 1, select: { id: true } })),
  "/datasets/[id]": (database) => firstIds(database.db.datasetSnapshot.findMany({ orderBy: { createdAt: "desc" }, take: 1, select: { id: true } })),
  "/evaluations/[id]": (database) => firstIds(database.db.evaluationJob.findMany({ orderBy: { createdAt: "desc" }, take: 1, select: { id: true } })),
  // The newest Agent Lightning training in the store (the sweep's beforeAll writes one when there is none).
  "/training/external/[resourcesId]": async (database) => {
    const { listExternalTrainings } = await import("@/server/training/external");
    return (await listExternalTrainings(database, { offset: 0, limit: 1 })).items.map((t) => t.resourcesId);
  },
  "/training/sweeps/[id]": (database) => firstIds(database.db.trainingSweep.findMany({ orderBy: { createdAt: "desc" }, take: 1, select: { id: true } })),
  // A registry record (the reference's evaluator) and a published exam when there is one: their pages differ.
  "/registries/[kind]/[name]": async (database) => {
    const entry = await database.db.registryEntry.findFirst({ where: { kind: "evaluator" }, orderBy: { createdAt: "asc" }, select: { kind: true, name: true } });
    const exam = await database.db.gateDataset.findFirst({ orderBy: { createdAt: "asc" }, select: { kind: true, name: true } });
    return [entry, exam].filter((r) => r !== null).map((r) => [r.kind, r.name]);
  },
};

/** Concrete paths for every signed-in page; throws naming a dynamic route without a sampler or a sample. */
export async function dashboardPaths(database: Database): Promise<string[]> {
  const paths: string[] = [];
  for (const route of appRoutes()) {
    if (PUBLIC_ROUTES.includes(route) && route !== "/status") continue;
    const dynamic = [...route.matchAll(/\[([^\]]+)\]/g)];
    if (!dynamic.length) {
      paths.push(route);
      continue;
    }
    const sampler = SAMPLES[route];
    if (!sampler) throw new Error(`${route}: add a sampler to SAMPLES in e2e/helpers/pages.ts so the page sweep opens it`);
    const ids = await sampler(database);
    if (!ids.length) throw new Error(`${route}: no record to open; create one in the sweep's beforeAll`);
    for (const id of ids) {
      const values = Array.isArray(id) ? id : [id];
      if (values.length !== dynamic.length) throw new Error(`${route}: its sampler gave ${values.length} value(s) for ${dynamic.length} dynamic segment(s)`);
      paths.push(dynamic.reduce((path, m, i) => path.replace(m[0], encodeURIComponent(values[i]!)), route));
    }
  }
  return [...paths, ...EXTRA_PATHS, ...(await comparePaths(database))];
}
