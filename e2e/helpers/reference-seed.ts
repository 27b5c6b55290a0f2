// For e2e journeys, run with DATABASE_URL of the e2e server:
//   npx tsx e2e/helpers/reference-seed.ts seed [A B …]  → seeds reference candidates (default A) without approvals; prints {"A": "<id>", …}
//   npx tsx e2e/helpers/reference-seed.ts seed-all      → seeds A–D, A without its approval; prints {"A": …, "B": …, "C": …, "D": …}
//   npx tsx e2e/helpers/reference-seed.ts rerun <id>    → the gate re-runs: a new stage 3 judged with the versions in force
import { openDatabase } from "@/server/db/client";
import { resolveDbTarget } from "@/server/db/config";
import { evaluatorFromKey } from "@/server/gate/versions";
import { loadReceipt, sealLink } from "@/server/receipts/links";
import { seedReferenceDemo } from "@/server/reference/reference-demo";
import { gateReport } from "@/server/receipts/report";

async function main() {
  const [command, id] = process.argv.slice(2);
  const database = await openDatabase(resolveDbTarget(process.env.DATABASE_URL));
  try {
    if (command === "seed") {
      const names = (process.argv.length > 3 ? process.argv.slice(3) : ["A"]) as ("A" | "B" | "C" | "D")[];
      const seeded = await seedReferenceDemo(database, { only: names, withoutApproval: names, now: new Date() });
      process.stdout.write(`${JSON.stringify(Object.fromEntries(seeded.map((s) => [s.name, s.candidateId])))}\n`);
    } else if (command === "seed-all") {
      const seeded = await seedReferenceDemo(database, { withoutApproval: ["A"], now: new Date() });
      process.stdout.write(`${JSON.stringify(Object.fromEntries(seeded.map((s) => [s.name, s.candidateId])))}\n`);
    } else if (command === "rerun" && id) {
      // As a re-run judges: with the versions in force now, the evaluator in force scoring the locked gate (the
      // imported cases' scores stand in for what it said) — the link names that evaluator, never relabels the old one.
      const stored = await gateReport(database, id);
      const stage3 = (await loadReceipt(database, id)).receipt!.stage3!;
      const evaluator = evaluatorFromKey(stored.versions.evaluator);
      const lockedGate = stage3.lockedGate && evaluator && { ...stage3.lockedGate, evaluator };
      await sealLink(database, id, "stage3", { ...stage3, ...(lockedGate ? { lockedGate } : {}), computedAt: new Date().toISOString(), versions: stored.versions });
      process.stdout.write(`${JSON.stringify({ rerun: id })}\n`);
    } else throw new Error("usage: reference-seed.ts seed | seed-all | rerun <candidateId>");
  } finally {
    await database.close();
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
