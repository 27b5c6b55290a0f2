import { createTRPCRouter } from "@/server/trpc";
import { diffVersionsRoute } from "./diff-versions";
import { getEntryRoute } from "./get-entry";
import { listCatalogRoute } from "./list-catalog";
import { listRegistryRoute } from "./list-registry";
import { previewDatasetRoute } from "./preview-dataset";
import { previewPublishRoute } from "./preview-publish";
import { publishDatasetRoute } from "./publish-dataset";
import { publishRegistryEntryRoute } from "./publish-registry-entry";

export const registriesRouter = createTRPCRouter({
  list: listRegistryRoute,
  publish: publishRegistryEntryRoute,
  catalog: listCatalogRoute,
  entry: getEntryRoute,
  diff: diffVersionsRoute,
  previewPublish: previewPublishRoute,
  previewDataset: previewDatasetRoute,
  publishDataset: publishDatasetRoute,
});
