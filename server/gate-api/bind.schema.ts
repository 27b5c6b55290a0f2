// The body of `POST /v1/gate/receipts/{receipt_id}/candidate`: the exact resource version the algorithm wrote.
import { z } from "zod";
import { ZExact } from "./declaration.schema";

export const ZBindCandidate = z.strictObject({ resources_id: ZExact(), version: z.number().int().min(1).max(2 ** 31 - 1) });
export type BindCandidateBody = z.infer<typeof ZBindCandidate>;
