import { z } from "zod";
import { ZExact } from "@/server/gate-api/declaration.schema";
import { GATE_PIN_PREFIX } from "@/server/store/resources";
import { ZAgentName } from "../people/people.types";

export const ZSetAutoJudgeInput = z.strictObject({
  agent: ZAgentName,
  /** The resources id whose new versions become candidates of the agent: an exact id, never a gate pin. */
  resourcesId: ZExact(512).refine((id) => !id.startsWith(GATE_PIN_PREFIX), `must not be one of the gate's own pins (${GATE_PIN_PREFIX}…)`),
  enabled: z.boolean(),
});

export const ZSetAutoJudgeOutput = z.object({ agent: z.string(), resourcesId: z.string(), enabled: z.boolean(), sinceVersion: z.number(), changedAt: z.date() });
