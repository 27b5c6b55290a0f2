// Where the dashboard is reached from: the origin browsers send, and the WebAuthn relying-party id
// (its host). Both come from LIGHTGATE_ORIGIN (default http://localhost:$PORT).
import { isIP } from "node:net";

export type PublicOrigin = {
  origin: string;
  rpId: string;
  /** Why passkeys cannot work on this origin (empty when they can). */
  webauthnProblems: string[];
};

export function publicOrigin(source: Record<string, string | undefined> = process.env): PublicOrigin {
  const raw = source.LIGHTGATE_ORIGIN?.trim() || `http://localhost:${source.PORT?.trim() || "3000"}`;
  const url = new URL(raw);
  const rpId = url.hostname.replace(/^\[|\]$/g, "");
  const problems: string[] = [];
  if (isIP(rpId)) {
    problems.push(`LIGHTGATE_ORIGIN uses the IP address ${rpId}; WebAuthn needs a domain name as relying-party id (use http://localhost:${url.port || "80"} or a real host name)`);
  }
  if (url.protocol !== "https:" && rpId !== "localhost" && !rpId.endsWith(".localhost")) {
    problems.push(`LIGHTGATE_ORIGIN is plain http on ${rpId}; browsers allow passkeys only on https or localhost`);
  }
  return { origin: url.origin, rpId, webauthnProblems: problems };
}
