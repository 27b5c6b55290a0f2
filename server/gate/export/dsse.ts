// DSSE (Dead Simple Signing Envelope) v1, exactly as secure-systems-lab/dsse protocol.md: the signature
// covers PAE(payloadType, payload); verification decodes, verifies over PAE, checks the type, then parses.
import { sign, verify, type KeyObject } from "node:crypto";
import { sha256Hex } from "@/server/digest";

export type DsseSignature = { keyid?: string; sig: string };
export type DsseEnvelope = { payload: string; payloadType: string; signatures: DsseSignature[] };

/** PAE(type, body) = "DSSEv1" SP LEN(type) SP type SP LEN(body) SP body, LEN in bytes, decimal. */
export function pae(payloadType: string, payload: Uint8Array): Buffer {
  const type = Buffer.from(payloadType, "utf8");
  return Buffer.concat([Buffer.from(`DSSEv1 ${type.length} `), type, Buffer.from(` ${payload.length} `), payload]);
}

/** keyid: a hint only (never a security decision) — sha-256 of the public key's SPKI DER. */
export function keyIdOf(publicKey: KeyObject): string {
  return sha256Hex(publicKey.export({ type: "spki", format: "der" }));
}

function signBytes(data: Buffer, privateKey: KeyObject): Buffer {
  if (privateKey.asymmetricKeyType === "ed25519") return sign(null, data, privateKey);
  if (privateKey.asymmetricKeyType === "ec") return sign("sha256", data, { key: privateKey, dsaEncoding: "ieee-p1363" });
  throw new Error(`unsupported signing key type ${privateKey.asymmetricKeyType}`);
}

function verifyBytes(data: Buffer, publicKey: KeyObject, sig: Buffer): boolean {
  try {
    if (publicKey.asymmetricKeyType === "ed25519") return verify(null, data, publicKey, sig);
    // ECDSA as in the DSSE test vector: SHA-256, raw r‖s.
    if (publicKey.asymmetricKeyType === "ec") return verify("sha256", data, { key: publicKey, dsaEncoding: "ieee-p1363" }, sig);
  } catch {
    return false;
  }
  return false;
}

export function signEnvelope(payload: Uint8Array, payloadType: string, privateKey: KeyObject, keyid?: string): DsseEnvelope {
  const sig = signBytes(pae(payloadType, payload), privateKey).toString("base64");
  return { payload: Buffer.from(payload).toString("base64"), payloadType, signatures: [keyid ? { keyid, sig } : { sig }] };
}

/** Standard or URL-safe base64 (the protocol requires accepting both); null when it is not base64 at all. */
export function decodeBase64(text: string): Buffer | null {
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(text) || (/[+/]/.test(text) && /[-_]/.test(text))) return null;
  const unpadded = text.replace(/=+$/, "");
  if (unpadded.length % 4 === 1) return null;
  return Buffer.from(unpadded.replace(/-/g, "+").replace(/_/g, "/"), "base64");
}

export type VerifyStep = { step: "decode" | "signature" | "payloadType" | "parse"; ok: boolean; detail: string };
export type EnvelopeVerification<T> =
  | { ok: true; payload: Buffer; parsed: T; acceptedKeys: string[]; steps: VerifyStep[] }
  | { ok: false; reason: string; steps: VerifyStep[] };

/**
 * Verifies in the order the DSSE protocol requires: decode → signatures over PAE against the trusted keys
 * (at least `threshold` distinct keys) → payload type → parse. Nothing is parsed before it is authenticated.
 */
export function verifyEnvelope<T = unknown>(
  envelope: unknown,
  opts: { trustedKeys: readonly KeyObject[]; payloadType: string; threshold?: number; parse?: (payload: Buffer) => T },
): EnvelopeVerification<T> {
  const steps: VerifyStep[] = [];
  const reject = (step: VerifyStep["step"], detail: string): EnvelopeVerification<T> => {
    steps.push({ step, ok: false, detail });
    return { ok: false, reason: `${step}: ${detail}`, steps };
  };
  const e = envelope as Partial<DsseEnvelope> | null;
  if (!e || typeof e !== "object" || typeof e.payload !== "string" || typeof e.payloadType !== "string" || !Array.isArray(e.signatures)) {
    return reject("decode", "not a DSSE envelope (payload, payloadType, signatures)");
  }
  const payload = decodeBase64(e.payload);
  const sigs = e.signatures.map((s: unknown) => {
    const sig = s && typeof s === "object" ? (s as Partial<DsseSignature>).sig : undefined;
    return typeof sig === "string" ? decodeBase64(sig) : null;
  });
  if (!payload) return reject("decode", "payload is not base64");
  if (sigs.length === 0 || sigs.some((s) => !s)) return reject("decode", "every signature must be base64 and there must be at least one");
  steps.push({ step: "decode", ok: true, detail: `${payload.length} payload bytes, ${plural(sigs.length, "signature")}` });

  const message = pae(e.payloadType, payload);
  const accepted = new Set<string>();
  for (const sig of sigs) {
    for (const key of opts.trustedKeys) {
      if (verifyBytes(message, key, sig!)) accepted.add(keyIdOf(key));
    }
  }
  const threshold = opts.threshold ?? 1;
  if (accepted.size < threshold) return reject("signature", `${accepted.size} of the required ${threshold} trusted key(s) signed PAE(payloadType, payload)`);
  steps.push({ step: "signature", ok: true, detail: `valid over PAE from ${plural(accepted.size, "trusted key")}` });

  if (e.payloadType !== opts.payloadType) return reject("payloadType", `"${e.payloadType}" is not the supported "${opts.payloadType}"`);
  steps.push({ step: "payloadType", ok: true, detail: e.payloadType });

  let parsed: T;
  try {
    parsed = opts.parse ? opts.parse(payload) : (JSON.parse(payload.toString("utf8")) as T);
  } catch (err) {
    return reject("parse", (err as Error).message);
  }
  steps.push({ step: "parse", ok: true, detail: "payload parsed" });
  return { ok: true, payload, parsed, acceptedKeys: [...accepted], steps };
}

const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? "" : "s"}`;
