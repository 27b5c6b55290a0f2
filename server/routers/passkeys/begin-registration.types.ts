import type { PublicKeyCredentialCreationOptionsJSON } from "@simplewebauthn/server";
import { z } from "zod";

// The WebAuthn creation options travel as JSON for @simplewebauthn/browser's startRegistration.
export const ZBeginRegistrationResponse = z.object({ nonce: z.string(), expiresAt: z.date(), options: z.custom<PublicKeyCredentialCreationOptionsJSON>() });
