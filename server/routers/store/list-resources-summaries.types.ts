import { z } from "zod";
import { ZPage } from "./page.types";

export const ZListResourcesSummariesInput = z.object({
  ...ZPage,
  resources_id_contains: z.string().max(200).optional(),
  sort_by: z.enum(["update_time", "create_time", "resources_id", "version"]).default("update_time"),
});
