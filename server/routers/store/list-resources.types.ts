import { z } from "zod";
import { ZPage } from "./page.types";

export const ZListResourcesInput = z.object({ ...ZPage, resources_id_contains: z.string().max(200).optional() });
