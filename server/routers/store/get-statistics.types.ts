import { z } from "zod";

/** No input: totals for the whole store. */
export const ZGetStatisticsInput = z.void();
