import { ZAbTestRequest } from "@/server/evaluations/ab";

/** Two family configs (each checked against its family's schema), seeds per arm, α, data and the metric. */
export const ZStartAbTestInput = ZAbTestRequest;
export { ZStartJobOutput } from "./start-evaluation.types";
