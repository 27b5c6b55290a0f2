import { z } from "zod";
import { ZRegistrationResponse } from "./webauthn.types";

export const ZFinishRegistrationInput = z.object({ nonce: z.string().min(1), name: z.string().trim().min(1, "give the passkey a name").max(64), response: ZRegistrationResponse });
