import { createTRPCRouter } from "@/server/trpc";
import { listAttemptsRoute } from "./list-attempts";
import { listResourcesRoute } from "./list-resources";
import { listResourcesVersionsRoute } from "./list-resources-versions";
import { listRolloutsRoute } from "./list-rollouts";
import { listWorkersRoute } from "./list-workers";
import { querySpansRoute } from "./query-spans";
import { getStatisticsRoute } from "./get-statistics";
import { querySpanOutlineRoute } from "./query-span-outline";
import { getSpanRoute } from "./get-span";
import { listResourcesHistoryRoute } from "./list-resources-history";
import { diffResourcesRoute } from "./diff-resources";
import { countWorkersRoute } from "./count-workers";
import { listResourcesSummariesRoute } from "./list-resources-summaries";
import { getResourcesVersionRoute } from "./get-resources-version";
import { countFailuresRoute } from "./count-failures";
import { getTraceSummaryRoute } from "./get-trace-summary";

export const storeRouter = createTRPCRouter({
  listRollouts: listRolloutsRoute,
  listAttempts: listAttemptsRoute,
  querySpans: querySpansRoute,
  listWorkers: listWorkersRoute,
  listResources: listResourcesRoute,
  listResourcesVersions: listResourcesVersionsRoute,
  getStatistics: getStatisticsRoute,
  querySpanOutline: querySpanOutlineRoute,
  getSpan: getSpanRoute,
  listResourcesHistory: listResourcesHistoryRoute,
  diffResources: diffResourcesRoute,
  countWorkers: countWorkersRoute,
  listResourcesSummaries: listResourcesSummariesRoute,
  getResourcesVersion: getResourcesVersionRoute,
  countFailures: countFailuresRoute,
  getTraceSummary: getTraceSummaryRoute,
});
