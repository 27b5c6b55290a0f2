// The registries area's kinds are the registry kinds plus the two kinds of published exam; tsc refuses a
// kind added to either side and not to the other.
import { AREA_KINDS, type AreaKind, type DatasetAreaKind } from "@/lib/registries/kinds";
import type { DatasetKind } from "@/server/gate-api/datasets.schema";
import type { RegistryKind } from "@/server/receipts/registries";

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameKinds: Same<AreaKind, RegistryKind | DatasetKind> = true;
const sameDatasets: Same<DatasetAreaKind, DatasetKind> = true;
void sameKinds;
void sameDatasets;

export { AREA_KINDS };
export type { AreaKind };
