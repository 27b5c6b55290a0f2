// The production server itself — scripts/serve.ts (store and gate fast paths beside Next.js, as `npm start`
// runs it) — as a child process on a test database, for what only the whole server shows: Next.js's own
// handling of pages and request bodies, and what the process prints (an uncaught exception). Needs a
// production build (`npx next build`; `npm test` builds before Vitest runs).
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { startScript, waitFor, type ScriptProcess } from "./script-process";

export type ServeProcess = { base: string; origin: string; output(): string; pid: number; stop(): Promise<void> };

/** Why the production server cannot start here (no build), or null. */
export function serveUnavailable(): string | null {
  return fs.existsSync(path.join(process.cwd(), ".next", "BUILD_ID")) ? null : "no production build in .next (run `npx next build`)";
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export async function startServeProcess(databaseUrl: string, env: Record<string, string> = {}): Promise<ServeProcess> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const origin = `http://localhost:${port}`;
  const child: ScriptProcess = startScript("scripts/serve.ts", [], {
    ...process.env,
    NODE_ENV: "production",
    DATABASE_URL: databaseUrl,
    PORT: String(port),
    HOSTNAME: "127.0.0.1",
    LIGHTGATE_ORIGIN: origin,
    LIGHTGATE_GATE_ORCHESTRATOR: "0",
    LIGHTGATE_AUTO_JUDGE: "0",
    ...env,
  });
  const healthy = () => fetch(`${base}/api/health`).then((r) => r.ok, () => false);
  await waitFor(async () => child.child.exitCode === null && (await healthy()), 120_000, () => `scripts/serve.ts did not answer:\n${child.output().slice(-3000)}`);
  return {
    base,
    origin,
    output: child.output,
    pid: child.child.pid!,
    async stop() {
      const timer = setTimeout(() => child.child.kill("SIGKILL"), 10_000);
      await child.stop();
      clearTimeout(timer);
    },
  };
}
