import { z } from "zod";

/** No input: runners in the whole store by status. */
export const ZCountWorkersInput = z.void();
