// A runner gone wrong, for the abort journey (e2e/promotion-abort.spec.ts): its own process with a runner key,
// serving the canary stage by calling a tool no boundary allows (tests/helpers/rogue-stage.ts) — the breach the
// gate run sees in the spans, which makes the canary guard move the canary pointer back to the exact parent.
// Runs until killed.
//   LIGHTGATE_RUNNER_KEY=… npx tsx e2e/helpers/rogue-runner.ts <base-url>
import { AglClient } from "../../tests/helpers/agl-client";
import { serveRogueOnce } from "../../tests/helpers/rogue-stage";

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main() {
  const url = process.argv[2];
  const key = process.env.LIGHTGATE_RUNNER_KEY;
  if (!url || !key) throw new Error("usage: LIGHTGATE_RUNNER_KEY=… rogue-runner.ts <base-url>");
  const client = new AglClient(url, { authorization: `Bearer ${key}` });
  for (;;) {
    const served = await serveRogueOnce(client).catch((e: unknown) => (console.error(e), false));
    if (!served) await pause(100);
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
