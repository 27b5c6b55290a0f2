// The training-run lifecycle, model-based, on PostgreSQL (the suite, its model and invariants: tests/helpers/run-lifecycle-model/).
import { runLifecycleModelSuite } from "../../helpers/run-lifecycle-model/suite";

runLifecycleModelSuite("postgresql");
