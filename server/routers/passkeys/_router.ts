import { createTRPCRouter } from "@/server/trpc";
import { listPasskeysRoute } from "./list-passkeys";
import { beginRegistrationRoute } from "./begin-registration";
import { finishRegistrationRoute } from "./finish-registration";
import { removePasskeyRoute } from "./remove-passkey";
import { beginTestSignatureRoute } from "./begin-test-signature";
import { finishTestSignatureRoute } from "./finish-test-signature";

export const passkeysRouter = createTRPCRouter({
  list: listPasskeysRoute,
  beginRegistration: beginRegistrationRoute,
  finishRegistration: finishRegistrationRoute,
  remove: removePasskeyRoute,
  beginTestSignature: beginTestSignatureRoute,
  finishTestSignature: finishTestSignatureRoute,
});
