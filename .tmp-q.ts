import { openDatabase } from "@/server/db/client";
import { resolveDbTarget } from "@/server/db/config";
const d = await openDatabase(resolveDbTarget("file:/tmp/runs-demo/demo.db"));
const r = await d.db.trainingRun.findFirstOrThrow({ where: { startedById: "demo" } });
const m = await d.db.trainingMetric.findMany({ where: { runId: r.id }, orderBy: { update: "asc" } });
console.log(r.status, r.statusReason, r.updatesDone, "started", r.startedAt?.toISOString(), "parent", r.parentHeldOutReward);
console.log(m.map((x) => `${x.update}: ${x.meanReward?.toFixed(3)} / ${x.heldOutReward?.toFixed(3)} cov ${x.coverage} r ${x.retries} at ${x.at.toISOString().slice(11, 19)}`).join("\n"));
console.log((await d.db.trainingEvent.findMany({ where: { runId: r.id }, orderBy: { at: "asc" } })).map((e) => `${e.at.toISOString().slice(11, 19)} ${e.message}`).join("\n"));
await d.close();
