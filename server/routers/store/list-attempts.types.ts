import { z } from "zod";
import { ZPage } from "./page.types";

export const ZListAttemptsInput = z.object({ rollout_id: z.string().min(1).max(512), ...ZPage });
