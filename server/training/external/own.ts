// Which resources lineages are Lightgate's own, so /training lists each training once: a Lightgate run's
// rollouts sit on resources its trainer wrote in-process, and those are recognisable in the database alone.
//  - gate pins (`lg-pin-…`, copies a gate run makes of a candidate and its parent);
//  - a run's candidates (`candidates.training_run_id` set; ids `<run>-u<update>`, publish.ts);
//  - a run's collect batches (`add_resources` ids whose rollouts carry `lightgate.run_id` metadata, collect.ts:
//    every rollout of such an id does, so the first one in start order decides — one index probe);
//  - the untrained parents the trainer publishes (`initial-<env>-<kind>`, context.ts) that a run names;
//  - versions only declared to the gate (a receipt's candidate or parent, `/v1/gate`) that no rollout ran on:
//    an evaluation target, not a training — a lineage someone trains has rollouts within seconds.
// Everything else written through the store (Agent Lightning's algorithms: APO, VERL, one's own) is external.
import { GATE_PIN_PREFIX } from "@/server/store/resources";
import { RUN_ID_KEY } from "@/server/training/collect";
import { INITIAL_PARENT_PREFIX } from "@/server/training/context";

/** LIKE pattern text with its wildcards escaped (`\` is the escape character). */
export const likeText = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A SQL condition on `store_resources` under alias `s`: true when the lineage is not Lightgate's own. No parameters. */
export function externalLineageSql(s = "s"): string {
  const id = `${s}.resources_id`;
  return `${id} NOT LIKE '${likeText(GATE_PIN_PREFIX)}%' ESCAPE '\\'
    AND NOT EXISTS (SELECT 1 FROM candidates c WHERE c.resources_id = ${id} AND c.training_run_id IS NOT NULL)
    AND NOT EXISTS (SELECT 1 FROM training_runs t WHERE t.parent_resources_id = ${id} AND ${id} LIKE '${likeText(INITIAL_PARENT_PREFIX)}%' ESCAPE '\\')
    AND (EXISTS (SELECT 1 FROM store_rollouts r WHERE r.resources_id = ${id})
      OR NOT EXISTS (SELECT 1 FROM candidates c WHERE c.resources_id = ${id} OR c.parent_resources_id = ${id}))
    AND COALESCE((SELECT r.metadata FROM store_rollouts r WHERE r.resources_id = ${id} ORDER BY r.start_time LIMIT 1), '') NOT LIKE '%"${likeText(RUN_ID_KEY)}"%' ESCAPE '\\'`;
}
