import { z } from "zod";
import { ZStartSweep } from "@/server/training/sweeps";

/** A family, its base config, the space (grid or random), seeds per config and the runs' settings. */
export const ZStartSweepInput = ZStartSweep;
export const ZStartSweepOutput = z.object({ id: z.string(), runs: z.number().int() });
