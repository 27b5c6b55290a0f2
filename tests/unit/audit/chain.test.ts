// The chain's pure core: any edit, reorder, removal or splice of a row is found, at the right row.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { findChainBreak, GENESIS_HASH, hashAuditRow, type AuditRow } from "@/server/audit/chain";

function chain(n: number): AuditRow[] {
  const rows: AuditRow[] = [];
  let prev = GENESIS_HASH;
  for (let i = 1; i <= n; i++) {
    const content = {
      id: `au-${i}`, seq: i, at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)), actorKind: "user", actorId: `usr-${i % 3}`, actorName: "A",
      actorRoles: "[]", action: i % 2 ? "role.grant" : "user.create", targetType: "user", targetId: `usr-${i}`, before: null, after: `{"n":${i}}`, prevHash: prev,
    };
    const row = { ...content, hash: hashAuditRow(content) };
    rows.push(row);
    prev = row.hash;
  }
  return rows;
}

describe("audit chain", () => {
  it("an intact chain verifies, also when checked in pieces", () => {
    const rows = chain(20);
    expect(findChainBreak(rows, null)).toBeNull();
    expect(findChainBreak(rows.slice(10), { seq: 10, hash: rows[9]!.hash })).toBeNull();
  });

  it("the hash covers every field", () => {
    const [row] = chain(1);
    const fields: (keyof AuditRow)[] = ["id", "actorKind", "actorId", "actorName", "actorRoles", "action", "targetType", "targetId", "before", "after"];
    for (const f of fields) expect(hashAuditRow({ ...row!, [f]: `${String(row![f])}x` }), f).not.toBe(row!.hash);
    expect(hashAuditRow({ ...row!, at: new Date(row!.at.getTime() + 1) })).not.toBe(row!.hash);
    expect(hashAuditRow({ ...row!, seq: 2 })).not.toBe(row!.hash);
  });

  it("finds the first altered, removed or re-linked row (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 30 }), fc.nat(), fc.constantFrom("edit", "delete", "relink", "swap"), (n, pick, kind) => {
        const rows = chain(n);
        const i = pick % n;
        let broken: AuditRow[];
        let expectedSeq: number;
        if (kind === "edit") {
          broken = rows.map((r, j) => (j === i ? { ...r, after: '{"n":-1}' } : r));
          expectedSeq = i + 1;
        } else if (kind === "delete") {
          broken = rows.filter((_, j) => j !== i);
          expectedSeq = i + 1;
          if (i === n - 1) return; // dropping the newest row leaves a valid shorter chain (see verifyAuditChain's head)
        } else if (kind === "relink") {
          // rewrite a row *and* its own hash consistently: the next row no longer follows it
          const edited = { ...rows[i]!, after: '{"n":-2}' };
          broken = rows.map((r, j) => (j === i ? { ...edited, hash: hashAuditRow(edited) } : r));
          expectedSeq = i === n - 1 ? -1 : i + 2;
          if (i === n - 1) return;
        } else {
          if (i === n - 1) return;
          broken = [...rows];
          [broken[i], broken[i + 1]] = [broken[i + 1]!, broken[i]!];
          expectedSeq = i + 1;
        }
        const found = findChainBreak(broken, null);
        expect(found?.seq).toBe(expectedSeq);
      }),
      { numRuns: 300 },
    );
  });
});
