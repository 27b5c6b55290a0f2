// The training-run lifecycle, model-based, on SQLite (the suite, its model and invariants: tests/helpers/run-lifecycle-model/).
import { runLifecycleModelSuite } from "../../helpers/run-lifecycle-model/suite";

runLifecycleModelSuite("sqlite");
