// The promotion lifecycle, model-based, on SQLite (the suite and its invariants: tests/helpers/promotion-model/).
import { promotionModelSuite } from "../../helpers/promotion-model/suite";

promotionModelSuite("sqlite");
