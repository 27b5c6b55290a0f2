// A Lightgate runner process: pulls episode rollouts from a store over HTTP and executes them.
//   npx tsx scripts/runner.ts --url http://127.0.0.1:3000 [--key lgk_…] [--id runner-1] [--transport otlp|rest]
// The key may also come from LIGHTGATE_RUNNER_KEY (create one with `npm run apikey -- create --role runner`).
// Start several at once: each claims rollouts from the same queue.
// It also serves the gate's rollouts (locked gate, canary, rollback). A canary writes its effects to the
// support desk's Ticket DB — standing in for an external ticket system — at LIGHTGATE_DESK_TICKETS_URL
// (default DATABASE_URL, the embedded SQLite file when unset); it is opened only when a canary arrives.
// A rollout whose resource is a prompt template is executed by a language model at OPENAI_BASE_URL
// (OPENAI_API_KEY, OPENAI_MODEL) when set, else by the deterministic built-in responder.
import { parseArgs } from "node:util";
import { Runner } from "../server/runner/runner";
import { TicketDb } from "../server/environments/support-desk/ticket-db";
import { stopSignal } from "../server/process/lifecycle";
import { endpointFromEnv, scorerId } from "../server/trainers/prompt/openai";

const { values } = parseArgs({
  options: {
    url: { type: "string", default: process.env.LIGHTGATE_URL ?? "http://127.0.0.1:3000" },
    key: { type: "string", default: process.env.LIGHTGATE_RUNNER_KEY },
    id: { type: "string" },
    transport: { type: "string", default: "otlp" },
    quiet: { type: "boolean", default: false },
  },
});

if (!values.key) {
  console.error("runner: no API key: pass --key or set LIGHTGATE_RUNNER_KEY (npm run apikey -- create --role runner)");
  process.exit(2);
}
if (values.transport !== "otlp" && values.transport !== "rest") {
  console.error('runner: --transport must be "otlp" or "rest"');
  process.exit(2);
}

let endpoint: ReturnType<typeof endpointFromEnv>;
try {
  endpoint = endpointFromEnv();
} catch (e) {
  console.error(`runner: ${(e as Error).message}`);
  process.exit(2);
}

const tickets = new TicketDb();
const runner = new Runner({
  url: values.url!,
  apiKey: values.key,
  workerId: values.id,
  transport: values.transport,
  destinations: tickets.resolve,
  llm: endpoint ? { endpoint } : null,
  log: values.quiet ? undefined : (l) => console.log(`[${values.id ?? "runner"}] ${l}`),
});
console.log(`runner ${runner.workerId}: pulling from ${values.url} (spans over ${values.transport}; prompts executed by ${endpoint ? scorerId(endpoint) : "the built-in responder"})`);
const stats = await runner.run(stopSignal(`runner ${runner.workerId}`));
await tickets.close();
console.log(`runner ${runner.workerId}: ${stats.succeeded} succeeded, ${stats.failed} failed, ${stats.errors} errors, ${stats.spans} spans`);
process.exit(0);
