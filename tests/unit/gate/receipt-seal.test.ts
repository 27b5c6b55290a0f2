// Receipts: stage validation names the field, sealing chains digests, and any edit of a sealed link is found.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type JsonValue } from "@/server/gate/digest";
import { canonicalJson, digestOf } from "@/server/digest";
import { ReceiptError, approvalTarget, sealStage, verifyChain, type SealedLink } from "@/server/gate/receipt/seal";
import { ZStage1 } from "@/server/gate/receipt/stage1";
import { receiptView } from "@/server/gate/receipt/view";
import { APPROVER, reference } from "./fixtures";

describe("stage 1", () => {
  it.each(["latest", "rs-latest", "policy@latest", "HEAD", "models/production", "default"])("refuses the moving name %j as the parent, naming the field", (id) => {
    const stage1 = reference("A").receipt.stage1;
    const parsed = ZStage1.safeParse({ ...stage1, parent: { ...stage1.parent, resourceId: id } });
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues[0]!.path).toEqual(["parent", "resourceId"]);
    expect(parsed.error!.issues[0]!.message).toMatch(/moving name/);
  });

  it("requires a content digest on the exact parent", () => {
    const stage1 = reference("A").receipt.stage1;
    const parsed = ZStage1.safeParse({ ...stage1, parent: { resourceId: stage1.parent.resourceId, version: 1 } });
    expect(parsed.error!.issues.map((i) => i.path.join("."))).toContain("parent.digest");
  });

  it("refuses an approver role that cannot hold the step's scope", () => {
    const stage1 = reference("A").receipt.stage1;
    const parsed = ZStage1.safeParse({ ...stage1, approvers: { ...stage1.approvers, default: { actorIds: [], roles: ["trainer"] } } });
    expect(parsed.error!.issues[0]!.path).toEqual(["approvers", "default", "roles", 0]);
  });
});

describe("sealing", () => {
  const { chain } = reference("A");

  it("stores each stage as canonical JSON with its sha-256 and the digest of the link before", () => {
    expect(chain.map((l) => l.kind)).toEqual(["stage1", "stage2", "stage3", "approval"]);
    chain.forEach((link, i) => {
      expect(link.contentDigest).toBe(digestOf(link.content));
      expect(link.prevDigest).toBe(i === 0 ? null : chain[i - 1]!.digest);
    });
    expect(verifyChain(chain)).toEqual({ ok: true, head: chain[3]!.digest });
  });

  it("hashes RFC 8785 canonical JSON: key order and number spelling do not change a digest", () => {
    expect(canonicalJson({ b: 1e2, a: [1.0, "x"] })).toBe('{"a":[1,"x"],"b":100}');
    expect(digestOf({ b: 2, a: 1 })).toBe(digestOf({ a: 1, b: 2 }));
  });

  it("refuses out-of-order stages and bad content with a ReceiptError naming the field", () => {
    expect(() => sealStage([], "stage2", reference("A").receipt.stage2!, "2026-03-02T10:00:00.000Z")).toThrow(/cannot follow nothing/);
    // A run that sealed stage 2 and failed before its stage 3: the next run's new stage 2 (late evidence) follows it.
    const [one, two] = reference("A").chain;
    const again = sealStage([one!, two!], "stage2", reference("A").receipt.stage2!, "2026-03-02T11:00:00.000Z");
    expect(verifyChain([one!, two!, again]).ok).toBe(true);
    const bad = { ...reference("A").receipt.stage1, codeRevision: "main" };
    try {
      sealStage([], "stage1", bad, "2026-03-02T10:00:00.000Z");
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ReceiptError);
      expect((e as ReceiptError).issues[0]!.path).toBe("codeRevision");
    }
  });

  it("binds an approval to the current stage 3: an approval naming anything else is refused", () => {
    const base = chain.slice(0, 3);
    const approval = { step: "canary" as const, decision: "approve" as const, actor: APPROVER, approves: chain[1]!.digest, at: "2026-03-02T17:00:00.000Z", comment: "" };
    expect(() => sealStage(base, "approval", approval, approval.at)).toThrow(/approves: must name/);
    expect(approvalTarget(base, "default")).toBeNull();
  });

  it("a gate re-run appends a new stage 3; earlier approvals stop counting", () => {
    const rerun = sealStage(chain, "stage3", { ...receiptView(chain).stage3!, computedAt: "2026-03-03T09:00:00.000Z" }, "2026-03-03T09:00:00.000Z");
    const view = receiptView([...chain, rerun]);
    expect(view.stage3Digest).toBe(rerun.digest);
    expect(view.approvals[0]!.approves).not.toBe(view.stage3Digest);
    expect(verifyChain([...chain, rerun]).ok).toBe(true);
  });

  it("detects a re-sealed tail or a dropped last link only against the expected head", () => {
    const head = chain.at(-1)!.digest;
    expect(verifyChain(chain.slice(0, 3)).ok).toBe(true);
    expect(verifyChain(chain.slice(0, 3), { expectedHead: head }).ok).toBe(false);
  });
});

type Mutable = { [k: string]: JsonValue } | JsonValue[];

/** Changes one leaf (chosen by `pick`) of a JSON value in place; returns false when there is no leaf. */
function editLeaf(value: JsonValue, pick: number[]): boolean {
  let node = value as Mutable;
  for (let depth = 0; ; depth++) {
    const keys = Array.isArray(node) ? node.map((_, i) => i) : Object.keys(node);
    if (!keys.length) return false;
    const key = keys[(pick[depth % pick.length] ?? 0) % keys.length]!;
    const child = (node as Record<string | number, JsonValue>)[key]!;
    if (child !== null && typeof child === "object") {
      node = child as Mutable;
      continue;
    }
    const edited = typeof child === "number" ? child + 1 : typeof child === "string" ? `${child}x` : typeof child === "boolean" ? !child : 0;
    (node as Record<string | number, JsonValue>)[key] = edited;
    return true;
  }
}

describe("sealed-stage edits (property)", () => {
  const sealed = reference("B").chain;

  it("any edit to any sealed link's content or header is detected", () => {
    fc.assert(
      fc.property(fc.nat(sealed.length - 1), fc.array(fc.nat(), { minLength: 1, maxLength: 12 }), fc.boolean(), (index, pick, header) => {
        const links: SealedLink[] = structuredClone(sealed);
        const link = links[index]!;
        if (header) {
          const field = (["kind", "index", "prevDigest", "sealedAt", "contentDigest"] as const)[pick[0]! % 5]!;
          const replacement = { kind: link.kind === "stage1" ? "stage2" : "stage1", index: link.index + 1, prevDigest: digestOf(pick), sealedAt: "2030-01-01T00:00:00.000Z", contentDigest: digestOf(pick) }[field];
          Object.assign(link, { [field]: replacement });
        } else if (!editLeaf(link.content, pick)) return;
        const result = verifyChain(links);
        expect(result.ok).toBe(false);
        if (!result.ok) expect(result.problems.some((p) => p.index === index)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});
