// The four reference candidates through the product's own queue: their held-out evidence was imported (the
// fixture's snapshot, not a published gate dataset), so the gate cannot ask runners for those cases. Asking for a
// re-run is refused with that reason, writes nothing, and every verdict stays exactly as recorded — never a
// silent flip.
import { afterAll, beforeAll, expect, it } from "vitest";
import { DomainError } from "@/server/errors";
import { requestGateRun } from "@/server/receipts/gate-queue";
import { seedReferenceDemo } from "@/server/reference/reference-demo";
import { gateReport } from "@/server/receipts/report";
import { REFERENCE_NOW } from "@/server/gate/reference/four-candidates";
import { SYSTEM } from "../../helpers/auth";
import { createTestDatabase, describeEachDialect, type TestDatabase } from "../../helpers/db";

describeEachDialect("re-gating the four reference candidates", (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect, "regate");
  }, 60_000);
  afterAll(() => database?.drop());

  it("is refused with the reason, and A, B, C, D keep their verdicts", async () => {
    const seeded = await seedReferenceDemo(database);
    const verdicts = async () => Object.fromEntries(await Promise.all(seeded.map(async (s) => [s.name, (await gateReport(database, s.candidateId, REFERENCE_NOW)).report!.verdict] as const)));
    const before = await verdicts();
    // A: PROMOTE TO BOUNDED CANARY on a signed approval, or READY FOR APPROVAL without one.
    expect(before).toEqual({ A: expect.stringMatching(/^(PROMOTE TO BOUNDED CANARY|READY FOR APPROVAL)$/), B: "QUARANTINED", C: "QUARANTINED", D: "QUARANTINED" });
    for (const s of seeded) {
      const refused = await requestGateRun(database, { candidateId: s.candidateId, actor: SYSTEM }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(refused, s.name).toBeInstanceOf(DomainError);
      expect(refused).toMatchObject({ code: "PRECONDITION_FAILED", field: "candidateId" });
      expect((refused as DomainError).message).toMatch(/not a published gate dataset .*evidence was imported/);
    }
    expect(await database.db.gateRun.count()).toBe(0);
    expect(await verdicts()).toEqual(before);
  }, 120_000);
}, { postgresql: "full-run" });
