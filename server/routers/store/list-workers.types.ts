import { z } from "zod";
import { WORKER_STATUSES } from "@/server/store/types";
import { ZPage } from "./page.types";

export const ZListWorkersInput = z.object({ ...ZPage, sort_order: z.enum(["asc", "desc"]).default("asc"), status_in: z.array(z.enum(WORKER_STATUSES)).optional() });
