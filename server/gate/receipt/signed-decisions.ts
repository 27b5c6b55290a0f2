// Check 7 rests only on a verified signed decision. A sealed approval link says who decided; what makes it
// count is the decision stored with it: the payload the server issued and the signer's signature over it. The
// database edge gathers, for each decision link, that payload and signature record and what it established
// about them — whether the signature verifies offline over exactly that payload, whether its key is one
// registered to the signer, which roles the signer held for the agent when the decision committed — and who
// separation of duties excludes. Plain data: crypto and lookups happen at the edge, the rules here.
import { z } from "zod";
import { ZDigest, ZJson } from "../digest";
import { ZRole, type ActorRef } from "./refs";

const ZFinding = z.discriminatedUnion("ok", [z.object({ ok: z.literal(true) }), z.object({ ok: z.literal(false), reason: z.string() })]);
export type Finding = z.infer<typeof ZFinding>;

export const ZDecisionRecord = z.object({
  /** The sealed approval link (an approval or a rejection) the decision was stored with. */
  link: ZDigest,
  /** The payload as issued and signed (server/auth/signing.ts), and the signature record; null when none was stored. */
  payload: ZJson,
  signature: ZJson,
  /** The signature checked offline over `payload` — anyone holding both can check it again. */
  signatureVerified: ZFinding,
  /** The record's key is one registered to the signer: a passkey of that person, a bot key not revoked before. */
  keyRegistered: ZFinding,
  /** The roles the signer held for the receipt's agent when the decision committed (the audit row written with it). */
  rolesAtTheTime: z.array(ZRole).nullable(),
});
export type DecisionRecord = z.infer<typeof ZDecisionRecord>;

export const ZSignedDecisions = z.object({
  records: z.array(ZDecisionRecord),
  /** Who may never decide on this candidate: its declarer, creator, training run's starter and their keys' owners. */
  excluded: z.array(z.string()),
});
export type SignedDecisions = z.infer<typeof ZSignedDecisions>;

export const NO_SIGNED_DECISIONS: SignedDecisions = { records: [], excluded: [] };

/** A sealed decision as the chain holds it: an approval link's content, and that link's digest. */
export type SealedDecision = { link: string; step: string; decision: "approve" | "reject"; actor: ActorRef; approves: string; comment: string };

const ZSignedDecisionPayload = z.object({
  signer: z.object({ kind: z.enum(["user", "service"]), id: z.string(), name: z.string().optional() }),
  data: z.object({
    kind: z.enum(["approval", "rejection"]),
    step: z.string(),
    decision: z.enum(["approve", "reject"]),
    approves: z.string(),
    comment: z.string(),
  }),
});

/** Who signed, as the signed payload names them, and how (a passkey's WebAuthn assertion, a bot's Ed25519 key). */
export type Signature = { by: { id: string; name: string }; method: string };
export type SignedDecisionFinding = { ok: true; actor: ActorRef; signature: Signature } | { ok: false; reason: string };

function whyNot(a: SealedDecision, r: DecisionRecord, excluded: readonly string[]): string | null {
  if (!r.signatureVerified.ok) return `its signature does not verify (${r.signatureVerified.reason})`;
  if (!r.keyRegistered.ok) return `it was signed with a key not registered to ${a.actor.id} (${r.keyRegistered.reason})`;
  const signed = ZSignedDecisionPayload.safeParse(r.payload);
  if (!signed.success) return "the signed payload is not a decision";
  const { signer, data } = signed.data;
  const same =
    signer.id === a.actor.id &&
    signer.kind === a.actor.kind &&
    data.kind === (a.decision === "approve" ? "approval" : "rejection") &&
    data.decision === a.decision &&
    data.step === a.step &&
    data.approves === a.approves &&
    data.comment === a.comment;
  if (!same) return "the signed payload is not this decision (signer, step, decision, link or comment differ)";
  if (excluded.includes(a.actor.id)) return `separation of duties excludes ${a.actor.id} from deciding on this candidate`;
  if (!r.rolesAtTheTime) return `no record shows which roles ${a.actor.id} held when it was decided`;
  return null;
}

/**
 * Whether a sealed decision rests on a verified signed decision; if so, the actor with the roles they held at
 * the time (what the receipt's authority is then checked against), else why not.
 */
export function signedDecisionOf(a: SealedDecision, decisions: SignedDecisions): SignedDecisionFinding {
  const records = decisions.records.filter((r) => r.link === a.link);
  if (!records.length) return { ok: false, reason: "no signed decision is stored for it" };
  let reason = "";
  for (const record of records) {
    const why = whyNot(a, record, decisions.excluded);
    if (!why) {
      const signer = (record.payload as { signer: { id: string; name?: string } }).signer;
      const method = (record.signature as { kind?: unknown } | null)?.kind;
      return { ok: true, actor: { ...a.actor, roles: record.rolesAtTheTime! }, signature: { by: { id: signer.id, name: signer.name ?? signer.id }, method: typeof method === "string" ? method : "unknown" } };
    }
    reason ||= why;
  }
  return { ok: false, reason };
}
