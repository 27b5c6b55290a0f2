// Sealed receipt links in the database. Each link is sealed by the pure core (`sealStage`) against the chain
// as stored, inside a transaction holding the candidate's receipt lock, and appended; the head is kept apart.
// The table refuses UPDATE and DELETE itself (triggers in the migration): nothing here edits a sealed link.
import type { Database, Db, Tx } from "@/server/db/client";
import { DomainError } from "@/server/errors";
import { canonicalJson, sha256Digest, type Digest } from "@/server/digest";
import { ReceiptError, sealStage, verifyChain, type ChainVerification, type LinkContent, type LinkKind, type SealedLink } from "@/server/gate/receipt/seal";
import { receiptView, type Receipt } from "@/server/gate/receipt/view";
import { holdAdmittedIn } from "./evidence-holds";

export const receiptLock = (candidateId: string) => `receipt:${candidateId}`;

type LinkRow = { index: number; kind: string; digest: string; prevDigest: string | null; contentDigest: string; content: string; sealedAt: string };

const toLink = (r: LinkRow): SealedLink => ({
  kind: r.kind as LinkKind,
  index: r.index,
  prevDigest: r.prevDigest as Digest | null,
  sealedAt: r.sealedAt,
  contentDigest: r.contentDigest as Digest,
  digest: r.digest as Digest,
  content: JSON.parse(r.content) as SealedLink["content"],
});

/** Verifies a stored chain against the head kept apart; links without a recorded head do not verify. */
function verifyStored(chain: SealedLink[], head: { digest: string } | null): ChainVerification {
  if (!head) return chain.length ? { ok: false, problems: [{ index: chain.length - 1, problem: "no chain head is recorded for these links" }] } : { ok: true, head: null };
  return verifyChain(chain, { expectedHead: head.digest as Digest });
}

/** The stored chain in order (unverified: pass it through `verifyChain`). */
export async function loadChain(db: Db | Tx, candidateId: string): Promise<SealedLink[]> {
  const rows = await db.receiptLink.findMany({ where: { candidateId }, orderBy: { index: "asc" } });
  return rows.map(toLink);
}

/**
 * Seals `content` as the next link of the candidate's chain inside `tx`, which must hold `receiptLock(id)`.
 * For callers that seal as part of a larger decision (an approval with its signature and audit row).
 */
export async function sealLinkIn<K extends LinkKind>(tx: Tx, candidateId: string, kind: K, content: LinkContent<K>, sealedAt: string = new Date().toISOString()): Promise<SealedLink> {
  const candidate = await tx.candidate.findUnique({ where: { id: candidateId }, select: { id: true } });
  if (!candidate) throw new DomainError("NOT_FOUND", `no candidate ${candidateId}`, "candidateId");
  const chain = await loadChain(tx, candidateId);
  const head = await tx.receiptHead.findUnique({ where: { candidateId } });
  const verified = verifyStored(chain, head);
  if (!verified.ok) throw new DomainError("CONFLICT", `the receipt of ${candidateId} fails verification: ${verified.problems.map((p) => `#${p.index} ${p.problem}`).join("; ")}`);
  let link: SealedLink;
  try {
    link = sealStage(chain, kind, content, sealedAt);
  } catch (e) {
    if (e instanceof ReceiptError) throw new DomainError("BAD_REQUEST", e.message, e.issues[0]?.path || "content");
    throw e;
  }
  await tx.receiptLink.create({
    data: { candidateId, index: link.index, kind: link.kind, digest: link.digest, prevDigest: link.prevDigest, contentDigest: link.contentDigest, content: canonicalJson(link.content), sealedAt: link.sealedAt },
  });
  // Stage 2 admits rollouts as evidence: retention must keep them as long as the receipt names them.
  if (link.kind === "stage2") await holdAdmittedIn(tx, candidateId, (link.content as LinkContent<"stage2">).rollouts.map((r) => r.rolloutId));
  const now = new Date();
  await tx.receiptHead.upsert({
    where: { candidateId },
    create: { candidateId, digest: link.digest, index: link.index, updatedAt: now },
    update: { digest: link.digest, index: link.index, updatedAt: now },
  });
  return link;
}

/** Seals the next link of a candidate's receipt in its own transaction, chained to the previous link. */
export function sealLink<K extends LinkKind>(database: Database, candidateId: string, kind: K, content: LinkContent<K>, opts: { sealedAt?: string } = {}): Promise<SealedLink> {
  return database.transaction((tx) => sealLinkIn(tx, candidateId, kind, content, opts.sealedAt), { locks: [receiptLock(candidateId)] });
}

/** Opens a candidate's receipt: seals the stage 1 it was registered with. */
export async function openReceipt(database: Database, candidateId: string, opts: { sealedAt?: string } = {}): Promise<SealedLink> {
  const candidate = await database.db.candidate.findUnique({ where: { id: candidateId } });
  if (!candidate) throw new DomainError("NOT_FOUND", `no candidate ${candidateId}`, "candidateId");
  return sealLink(database, candidateId, "stage1", JSON.parse(candidate.stage1) as LinkContent<"stage1">, opts);
}

export type LoadedReceipt = {
  chain: SealedLink[];
  head: Digest | null;
  verification: ChainVerification;
  /** Null when the chain is empty or fails verification: a broken receipt is never judged. */
  receipt: Receipt | null;
};

// Sealed links never change, so a chain verified and parsed once is kept per process, keyed by every stored
// byte that verification reads: each request still re-hashes the stored content (cheap), but a 10,000-rollout
// stage 2 is not canonicalized and parsed again. Any edit changes the key and is verified from scratch.
const VERIFIED = new Map<string, { key: string; loaded: LoadedReceipt }>();
const VERIFIED_MAX = 64;

function storedKey(rows: readonly LinkRow[], head: { digest: string } | null): string | null {
  const parts: string[] = [];
  for (const r of rows) {
    if (sha256Digest(r.content) !== r.contentDigest) return null; // edited content: verify from scratch
    parts.push(`${r.index}|${r.kind}|${r.prevDigest ?? ""}|${r.sealedAt}|${r.contentDigest}|${r.digest}`);
  }
  return sha256Digest(`${parts.join("\n")}#${head?.digest ?? ""}`);
}

export async function loadReceipt(database: Database | { db: Db | Tx }, candidateId: string): Promise<LoadedReceipt> {
  const rows = await database.db.receiptLink.findMany({ where: { candidateId }, orderBy: { index: "asc" } });
  const headRow = await database.db.receiptHead.findUnique({ where: { candidateId } });
  const key = storedKey(rows, headRow);
  const cached = key ? VERIFIED.get(candidateId) : undefined;
  if (cached && cached.key === key) return cached.loaded;
  const chain = rows.map(toLink);
  const verification = verifyStored(chain, headRow);
  const receipt = verification.ok && chain.length > 0 ? receiptView(chain) : null;
  const loaded = { chain, head: (headRow?.digest as Digest | undefined) ?? null, verification, receipt };
  if (key && verification.ok) {
    if (VERIFIED.size >= VERIFIED_MAX) VERIFIED.delete(VERIFIED.keys().next().value!);
    VERIFIED.set(candidateId, { key, loaded });
  }
  return loaded;
}
