import { z } from "zod";
import { ZPage } from "./page.types";

export const ZListResourcesHistoryInput = z.object({ resources_id: z.string().min(1).max(512), ...ZPage });
