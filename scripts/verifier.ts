// A Lightgate verifier process: finds the gate's canary outcomes waiting for a verification, re-reads each
// one's ticket in the support desk's Ticket DB and posts what it found (`method: "destination"`).
//   npm run verifier -- --url http://127.0.0.1:3000 --key lgk_…  [--once] [--poll-ms 250] [--quiet]
// The key may also come from LIGHTGATE_VERIFIER_KEY (create one with `npm run apikey -- create --role verifier`).
// The Ticket DB stands in for an external ticket system: LIGHTGATE_DESK_TICKETS_URL, default DATABASE_URL.
import { parseArgs } from "node:util";
import { TicketDb } from "../server/environments/support-desk/ticket-db";
import { stopSignal } from "../server/process/lifecycle";
import { Verifier } from "../server/verifier/verifier";

const { values } = parseArgs({
  options: {
    url: { type: "string", default: process.env.LIGHTGATE_URL ?? "http://127.0.0.1:3000" },
    key: { type: "string", default: process.env.LIGHTGATE_VERIFIER_KEY },
    once: { type: "boolean", default: false },
    "poll-ms": { type: "string", default: "250" },
    quiet: { type: "boolean", default: false },
  },
});

if (!values.key) {
  console.error("verifier: no API key: pass --key or set LIGHTGATE_VERIFIER_KEY (npm run apikey -- create --role verifier)");
  process.exit(2);
}
const pollMs = Number(values["poll-ms"]);
if (!Number.isInteger(pollMs) || pollMs < 10 || pollMs > 3_600_000) {
  console.error("verifier: --poll-ms must be a whole number of milliseconds between 10 and 3600000");
  process.exit(2);
}

const tickets = new TicketDb();
const verifier = new Verifier({ url: values.url!, apiKey: values.key, destinations: tickets.resolve, pollMs, log: values.quiet ? undefined : (l) => console.log(`[verifier] ${l}`) });
console.log(`verifier: polling ${values.url} for canary outcomes to verify`);
let code = 0;
if (values.once) {
  code = await verifier.runOnce().then(
    () => 0,
    (e: Error) => (console.error(`verifier: ${e.message}`), 1),
  );
} else {
  await verifier.run(stopSignal("verifier"));
}
await tickets.close();
const s = verifier.stats;
console.log(`verifier: ${s.matched} matched, ${s.mismatched} not matched, ${s.already} already verified, ${s.skipped} skipped, ${s.retried} to retry, ${s.errors} errors`);
process.exit(code);
