// Developer aid: `npx tsx scripts/seed-store-demo.ts http://localhost:3000 [--key <api key>] [--big 1000]` fills a
// running server's store through /v1/agl (the same data e2e/store-pages.spec.ts uses) so the Rollouts,
// Traces, Resources and Runners pages have something to show. Without --key the server must allow
// anonymous loopback access (LIGHTGATE_ALLOW_ANONYMOUS_STORE=1). --big adds a rollout with that many spans.
import { AglClient } from "../tests/helpers/agl-client";
import { seedBigRollout, seedStore } from "../e2e/helpers/store-seed";

const [root] = process.argv.slice(2);
const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
if (!root) throw new Error("usage: seed-store-demo <server url> [--key KEY] [--big N]");
const key = arg("key");
const client = new AglClient(root, key ? { authorization: `Bearer ${key}` } : {});
const seeded = await seedStore(client);
console.log(JSON.stringify(seeded, (k, v: unknown) => (k === "firstSpans" ? undefined : v), 2));
const big = Number(arg("big") ?? 0);
if (big > 0) console.log("big rollout:", await seedBigRollout(client, big));
