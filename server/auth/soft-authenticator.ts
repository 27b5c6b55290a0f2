// A software WebAuthn authenticator (ES256, "none" attestation) for fixtures and server-side tests: it produces
// the same JSON a browser's navigator.credentials returns, so the server runs real ceremonies — registration,
// then signatures verified against the registered key. The reference fixture's approver signs with one
// (server/reference/reference-approver.ts); no route reaches it. The browser path uses real authenticators
// (Chromium's virtual authenticator in e2e/).
import { generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto";
import { isoBase64URL, isoCBOR } from "@simplewebauthn/server/helpers";
import { sha256Bytes } from "@/server/digest";
import type { AuthenticationResponseJSON, PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON, RegistrationResponseJSON } from "@simplewebauthn/server";

const sha = (b: Uint8Array | string) => sha256Bytes(b);
const b64 = (b: Uint8Array) => isoBase64URL.fromBuffer(new Uint8Array(b));
const u32 = (n: number) => new Uint8Array([(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]);
const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

export class SoftAuthenticator {
  readonly credentialId = new Uint8Array(randomBytes(16));
  readonly #privateKey: KeyObject;
  readonly #cosePublicKey: Uint8Array;
  counter = 0;
  userVerified = true;

  constructor(readonly origin: string) {
    const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    this.#privateKey = privateKey;
    const jwk = publicKey.export({ format: "jwk" });
    const cose = new Map<number, number | Uint8Array>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, isoBase64URL.toBuffer(jwk.x!)],
      [-3, isoBase64URL.toBuffer(jwk.y!)],
    ]);
    this.#cosePublicKey = isoCBOR.encode(cose);
  }

  get id(): string {
    return b64(this.credentialId);
  }

  #flags(attested: boolean) {
    return (0x01 /* UP */ | (this.userVerified ? 0x04 : 0) | (attested ? 0x40 : 0)) & 0xff;
  }

  register(options: PublicKeyCredentialCreationOptionsJSON): RegistrationResponseJSON {
    const clientDataJSON = new TextEncoder().encode(JSON.stringify({ type: "webauthn.create", challenge: options.challenge, origin: this.origin, crossOrigin: false }));
    const authData = concat(
      sha(options.rp.id!),
      new Uint8Array([this.#flags(true)]),
      u32(this.counter),
      new Uint8Array(16), // AAGUID
      new Uint8Array([0, this.credentialId.length]),
      this.credentialId,
      this.#cosePublicKey,
    );
    const attestationObject = isoCBOR.encode(new Map<string, unknown>([["fmt", "none"], ["attStmt", new Map()], ["authData", authData]]) as never);
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key",
      clientExtensionResults: {},
      response: { clientDataJSON: b64(clientDataJSON), attestationObject: b64(attestationObject), transports: ["internal"] },
    };
  }

  /** Answers a request; `challenge` may be overridden to model a tampering client. */
  assert(options: PublicKeyCredentialRequestOptionsJSON, override: { challenge?: string; rpId?: string } = {}): AuthenticationResponseJSON {
    this.counter += 1;
    const clientDataJSON = new TextEncoder().encode(JSON.stringify({ type: "webauthn.get", challenge: override.challenge ?? options.challenge, origin: this.origin, crossOrigin: false }));
    const authenticatorData = concat(sha(override.rpId ?? options.rpId!), new Uint8Array([this.#flags(false)]), u32(this.counter));
    const signature = new Uint8Array(sign("sha256", concat(authenticatorData, sha(clientDataJSON)), this.#privateKey));
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key",
      clientExtensionResults: {},
      response: { clientDataJSON: b64(clientDataJSON), authenticatorData: b64(authenticatorData), signature: b64(signature) },
    };
  }
}
