"use client";

// The browser half of a signed decision: begin (the server issues the payload and the WebAuthn challenge =
// its digest) → the passkey prompt → finish (the server verifies and commits in one transaction).
import { startAuthentication } from "@simplewebauthn/browser";
import type { PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/browser";

export type Begun = { payload: unknown; options: unknown };

export async function signWithPasskey<B extends Begun, R>(begin: () => Promise<B>, finish: (b: B, response: Awaited<ReturnType<typeof startAuthentication>>) => Promise<R>): Promise<R> {
  const begun = await begin();
  if (!begun.options) throw new Error("this decision must be signed by a release bot's key, not a passkey");
  const response = await startAuthentication({ optionsJSON: begun.options as PublicKeyCredentialRequestOptionsJSON });
  return finish(begun, response);
}

export function errorText(err: unknown): string {
  const e = err as Error & { name?: string };
  if (e?.name === "NotAllowedError") return "The passkey prompt was cancelled or timed out. Nothing was signed or changed.";
  return e?.message ?? String(err);
}
