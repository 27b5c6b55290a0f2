// Sealing: each stage is stored as canonical JSON with its sha-256 digest and the digest of the link before.
// A sealed link is never edited; later facts (re-runs, approvals, the canary stage) are appended.
import { z } from "zod";
import { ZDigest, ZJson, type Digest, type JsonValue } from "../digest";
import { digestOf } from "@/server/digest";
import { ZApproval } from "./approval";
import { ZStage1 } from "./stage1";
import { ZStage2 } from "./stage2";
import { ZCanaryStage, ZStage3 } from "./stage3";

export const LINK_KINDS = ["stage1", "stage2", "stage3", "approval", "canary-stage"] as const;
export type LinkKind = (typeof LINK_KINDS)[number];

export const CONTENT_SCHEMAS = {
  stage1: ZStage1,
  stage2: ZStage2,
  stage3: ZStage3,
  approval: ZApproval,
  "canary-stage": ZCanaryStage,
} as const satisfies Record<LinkKind, z.ZodType>;
export type LinkContent<K extends LinkKind> = z.infer<(typeof CONTENT_SCHEMAS)[K]>;

// What each kind may follow (null = first link). A gate re-run appends a new stage 3 that supersedes the old —
// after a new stage 2 when admitted rollouts changed since the last one was sealed (late evidence), even when
// the run that sealed the previous stage 2 never reached its stage 3 (it failed or ran out of time).
const MAY_FOLLOW: Record<LinkKind, readonly (LinkKind | null)[]> = {
  stage1: [null],
  stage2: ["stage1", "stage2", "stage3", "approval", "canary-stage"],
  stage3: ["stage2", "stage3", "approval", "canary-stage"],
  approval: ["stage3", "approval", "canary-stage"],
  "canary-stage": ["stage3", "approval"],
};

export const ZSealedLink = z.object({
  kind: z.enum(LINK_KINDS),
  index: z.number().int().min(0),
  prevDigest: ZDigest.nullable(),
  sealedAt: z.iso.datetime(),
  contentDigest: ZDigest,
  digest: ZDigest,
  content: ZJson,
});
export type SealedLink = z.infer<typeof ZSealedLink>;

export class ReceiptError extends Error {
  constructor(
    message: string,
    readonly issues: { path: string; message: string }[] = [],
  ) {
    super(issues.length ? `${message}: ${issues.map((i) => `${i.path || "(root)"}: ${i.message}`).join("; ")}` : message);
    this.name = "ReceiptError";
  }
}

function headerDigest(l: Pick<SealedLink, "kind" | "index" | "prevDigest" | "sealedAt" | "contentDigest">): Digest {
  return digestOf({ kind: l.kind, index: l.index, prevDigest: l.prevDigest, sealedAt: l.sealedAt, contentDigest: l.contentDigest });
}

/** The digest an approval of `step` must name: the latest stage 3, or the canary stage after it. */
export function approvalTarget(chain: readonly SealedLink[], step: "canary" | "default"): Digest | null {
  const lastStage3 = chain.findLastIndex((l) => l.kind === "stage3");
  if (lastStage3 < 0) return null;
  if (step === "canary") return chain[lastStage3]!.digest;
  const canaryStage = chain.findLastIndex((l) => l.kind === "canary-stage");
  if (canaryStage > lastStage3) return chain[canaryStage]!.digest;
  // A re-run that carried the sealed canary stage forward (stage3.carriesCanaryStage): the default step still decides on it.
  const carried = (chain[lastStage3]!.content as { carriesCanaryStage?: string }).carriesCanaryStage;
  return canaryStage >= 0 && carried === chain[canaryStage]!.digest ? chain[canaryStage]!.digest : null;
}

/** Seals `content` as the next link of `chain`. Throws ReceiptError naming the field on bad input. */
export function sealStage<K extends LinkKind>(chain: readonly SealedLink[], kind: K, content: LinkContent<K>, sealedAt: string): SealedLink {
  const parsed = CONTENT_SCHEMAS[kind].safeParse(content);
  if (!parsed.success) {
    throw new ReceiptError(`invalid ${kind}`, parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message })));
  }
  if (!z.iso.datetime().safeParse(sealedAt).success) throw new ReceiptError("sealedAt must be an ISO-8601 UTC timestamp");
  const prev = chain.at(-1) ?? null;
  if (!MAY_FOLLOW[kind].includes(prev?.kind ?? null)) {
    throw new ReceiptError(`a ${kind} cannot follow ${prev ? `a ${prev.kind}` : "nothing"}`);
  }
  if (kind === "approval") {
    const approval = parsed.data as LinkContent<"approval">;
    const target = approvalTarget(chain, approval.step);
    if (approval.approves !== target) {
      throw new ReceiptError("approval is not bound to the current receipt", [
        { path: "approves", message: target ? `must name ${target}` : `there is nothing to approve for the ${approval.step} step yet` },
      ]);
    }
  }
  const json = parsed.data as JsonValue;
  const head = { kind, index: chain.length, prevDigest: prev?.digest ?? null, sealedAt, contentDigest: digestOf(json) };
  return { ...head, digest: headerDigest(head), content: json };
}

export type ChainVerification = { ok: true; head: Digest | null } | { ok: false; problems: { index: number; problem: string }[] };

/**
 * Recomputes every digest and link. Detects any edit of a sealed link; pass `expectedHead` (kept apart from
 * the chain, e.g. signed or stored elsewhere) to also detect a re-sealed tail or a dropped last link.
 */
export function verifyChain(links: readonly unknown[], opts: { expectedHead?: Digest } = {}): ChainVerification {
  const problems: { index: number; problem: string }[] = [];
  const seen: SealedLink[] = [];
  let prev: SealedLink | null = null;
  for (const [index, raw] of links.entries()) {
    const shape = ZSealedLink.safeParse(raw);
    if (!shape.success) {
      problems.push({ index, problem: `not a sealed link (${shape.error.issues[0]?.path.join(".")}: ${shape.error.issues[0]?.message})` });
      prev = null;
      continue;
    }
    const link = shape.data;
    if (link.index !== index) problems.push({ index, problem: `index ${link.index} at position ${index}` });
    if (link.prevDigest !== (index === 0 ? null : (prev?.digest ?? "(unreadable)"))) problems.push({ index, problem: "does not name the link before it" });
    if (!MAY_FOLLOW[link.kind].includes(index === 0 ? null : (prev?.kind ?? null))) problems.push({ index, problem: `a ${link.kind} cannot come here` });
    if (digestOf(link.content) !== link.contentDigest) problems.push({ index, problem: "content was edited after sealing (content digest differs)" });
    if (headerDigest(link) !== link.digest) problems.push({ index, problem: "header was edited after sealing (link digest differs)" });
    const content = CONTENT_SCHEMAS[link.kind].safeParse(link.content);
    if (!content.success) problems.push({ index, problem: `content is not a valid ${link.kind}` });
    else if (link.kind === "approval") {
      const approval = content.data as LinkContent<"approval">;
      if (approval.approves !== approvalTarget(seen, approval.step)) problems.push({ index, problem: "approval does not name the link it decided on" });
    }
    seen.push(link);
    prev = link;
  }
  const head = links.length ? (prev?.digest ?? null) : null;
  if (opts.expectedHead !== undefined && head !== opts.expectedHead) {
    problems.push({ index: links.length - 1, problem: `chain head ${head ?? "(none)"} is not the expected ${opts.expectedHead}` });
  }
  return problems.length ? { ok: false, problems } : { ok: true, head };
}
