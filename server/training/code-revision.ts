// The code revision a run records: the git commit the server runs from, or — in a package install without
// git — a stable hash of the package version, so stage 1 always names exactly which trainer code ran.
import { execFileSync } from "node:child_process";
import { sha256Hex } from "@/server/digest";
import { APP_VERSION } from "@/server/version";

let cached: string | undefined;

export function codeRevision(): string {
  if (cached) return cached;
  const fromEnv = process.env.LIGHTGATE_CODE_REVISION;
  if (fromEnv && /^[0-9a-f]{7,64}$/.test(fromEnv)) return (cached = fromEnv);
  try {
    const sha = execFileSync("git", ["rev-parse", "HEAD"], { stdio: ["ignore", "pipe", "ignore"], timeout: 2_000 }).toString().trim();
    if (/^[0-9a-f]{40}$/.test(sha)) return (cached = sha);
  } catch {
    // No git (installed package): fall through.
  }
  return (cached = sha256Hex(`lightgate@${APP_VERSION}`).slice(0, 40));
}
