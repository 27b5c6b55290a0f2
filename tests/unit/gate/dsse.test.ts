// DSSE: PAE byte for byte, the spec's own test vector, and verification in the order the protocol requires.
import { createPrivateKey, createPublicKey, generateKeyPairSync } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { keyIdOf, pae, signEnvelope, verifyEnvelope } from "@/server/gate/export/dsse";

// secure-systems-lab/dsse protocol.md, "Test Vectors".
const VECTOR = {
  payloadType: "http://example.com/HelloWorld",
  envelope: {
    payload: "aGVsbG8gd29ybGQ=",
    payloadType: "http://example.com/HelloWorld",
    signatures: [{ sig: "A3JqsQGtVsJ2O2xqrI5IcnXip5GToJ3F+FnZ+O88SjtR6rDAajabZKciJTfUiHqJPcIAriEGAHTVeCUjW2JIZA==" }],
  },
  x: "46950820868899156662930047687818585632848591499744589407958293238635476079160",
  y: "5640078356564379163099075877009565129882514886557779369047442380624545832820",
  d: "97358161215184420915383655311931858321456579547487070936769975997791359926199",
};
const b64url = (decimal: string) => Buffer.from(BigInt(decimal).toString(16).padStart(64, "0"), "hex").toString("base64url");
const vectorJwk = { kty: "EC", crv: "P-256", x: b64url(VECTOR.x), y: b64url(VECTOR.y) };
const vectorKey = createPublicKey({ key: vectorJwk, format: "jwk" });

const ed = () => generateKeyPairSync("ed25519");
const text = (b: Buffer) => b.toString("utf8");

describe("DSSE", () => {
  it("PAE matches the spec's test vector byte for byte", () => {
    expect(pae("http://example.com/HelloWorld", Buffer.from("hello world")).toString("latin1")).toBe("DSSEv1 29 http://example.com/HelloWorld 11 hello world");
    expect(pae("t", Buffer.from("é")).toString("latin1")).toBe("DSSEv1 1 t 2 Ã©"); // LEN counts bytes, not characters
  });

  it("verifies the spec's test-vector envelope with the spec's ECDSA P-256 key", () => {
    const result = verifyEnvelope(VECTOR.envelope, { trustedKeys: [vectorKey], payloadType: VECTOR.payloadType, parse: text });
    expect(result).toMatchObject({ ok: true, parsed: "hello world" });
    const signer = createPrivateKey({ key: { ...vectorJwk, d: b64url(VECTOR.d) }, format: "jwk" });
    const ours = signEnvelope(Buffer.from("hello world"), VECTOR.payloadType, signer);
    expect(ours.payload).toBe(VECTOR.envelope.payload);
    expect(verifyEnvelope(ours, { trustedKeys: [vectorKey], payloadType: VECTOR.payloadType, parse: text }).ok).toBe(true);
  });

  it("signs with Ed25519 and rejects any change to payload, type or signature", () => {
    const { publicKey, privateKey } = ed();
    const env = signEnvelope(Buffer.from('{"a":1}'), "application/vnd.in-toto+json", privateKey, keyIdOf(publicKey));
    const opts = { trustedKeys: [publicKey], payloadType: "application/vnd.in-toto+json" };
    expect(verifyEnvelope(env, opts)).toMatchObject({ ok: true, parsed: { a: 1 }, acceptedKeys: [keyIdOf(publicKey)] });
    const flipped = Buffer.from(env.signatures[0]!.sig, "base64");
    flipped[0]! ^= 1;
    for (const bad of [
      { ...env, payload: Buffer.from('{"a":2}').toString("base64") },
      { ...env, payloadType: "application/json" },
      { ...env, signatures: [{ sig: flipped.toString("base64") }] },
    ]) {
      const r = verifyEnvelope(bad, opts);
      expect(r.ok).toBe(false);
      expect(r.steps.at(-1)).toMatchObject({ step: "signature", ok: false });
    }
    expect(verifyEnvelope(env, { ...opts, trustedKeys: [ed().publicKey] }).ok).toBe(false);
  });

  it("checks the signature before the payload type, and parses only after both", () => {
    const { publicKey, privateKey } = ed();
    const parse = vi.fn((b: Buffer) => JSON.parse(text(b)) as unknown);
    const notJson = signEnvelope(Buffer.from("not json"), "application/vnd.in-toto+json", privateKey);

    const wrongKey = verifyEnvelope(notJson, { trustedKeys: [ed().publicKey], payloadType: "other/type", parse });
    expect(wrongKey.steps.map((s) => [s.step, s.ok])).toEqual([["decode", true], ["signature", false]]);

    const wrongType = verifyEnvelope(notJson, { trustedKeys: [publicKey], payloadType: "other/type", parse });
    expect(wrongType.steps.map((s) => [s.step, s.ok])).toEqual([["decode", true], ["signature", true], ["payloadType", false]]);
    expect(parse).not.toHaveBeenCalled();

    const unparsable = verifyEnvelope(notJson, { trustedKeys: [publicKey], payloadType: "application/vnd.in-toto+json", parse });
    expect(unparsable.steps.map((s) => [s.step, s.ok])).toEqual([["decode", true], ["signature", true], ["payloadType", true], ["parse", false]]);
    expect(parse).toHaveBeenCalledOnce();
  });

  it("accepts standard and URL-safe base64, rejects anything else at decode", () => {
    const { publicKey, privateKey } = ed();
    const env = signEnvelope(Buffer.from([0xfb, 0xff, 0xfe]), "t", privateKey);
    expect(env.payload).toBe("+//+");
    const opts = { trustedKeys: [publicKey], payloadType: "t", parse: (b: Buffer) => b };
    expect(verifyEnvelope({ ...env, payload: "-__-" }, opts).ok).toBe(true);
    expect(verifyEnvelope({ ...env, payload: "+_/-" }, opts)).toMatchObject({ ok: false, reason: "decode: payload is not base64" });
    expect(verifyEnvelope({ ...env, payload: "a b" }, opts).ok).toBe(false);
    expect(verifyEnvelope({ payload: env.payload }, opts)).toMatchObject({ ok: false, steps: [{ step: "decode", ok: false }] });
  });

  it("counts distinct trusted keys for a (t, n) threshold; keyid is only a hint", () => {
    const k1 = ed();
    const k2 = ed();
    const one = signEnvelope(Buffer.from("{}"), "t", k1.privateKey, "not-the-real-keyid");
    const two = { ...one, signatures: [...one.signatures, ...signEnvelope(Buffer.from("{}"), "t", k2.privateKey).signatures] };
    const opts = { trustedKeys: [k1.publicKey, k2.publicKey], payloadType: "t" };
    expect(verifyEnvelope(one, opts).ok).toBe(true);
    expect(verifyEnvelope(one, { ...opts, threshold: 2 }).ok).toBe(false);
    expect(verifyEnvelope({ ...one, signatures: [...one.signatures, ...one.signatures] }, { ...opts, threshold: 2 }).ok).toBe(false);
    expect(verifyEnvelope(two, { ...opts, threshold: 2 }).ok).toBe(true);
  });
});
