// A product script (scripts/*.ts) as a real second process, the way `npm start` spawns its helpers:
// `node --import tsx`, so a signal sent to it reaches the script itself.
import { spawn, type ChildProcess } from "node:child_process";

export type ScriptProcess = {
  child: ChildProcess;
  output(): string;
  /** SIGTERM (by this child's pid), then the exit code. */
  stop(): Promise<number | null>;
  exited: Promise<number | null>;
};

export function startScript(script: string, args: string[], env: NodeJS.ProcessEnv): ScriptProcess {
  const child = spawn(process.execPath, ["--import", "tsx", script, ...args], { env: { NEXT_TELEMETRY_DISABLED: "1", ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return {
    child,
    output: () => out,
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
}

/** Polls `done` until it holds (or fails after `ms`, saying what the process printed). */
export async function waitFor(done: () => Promise<boolean>, ms: number, describe: () => string): Promise<void> {
  const until = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > until) throw new Error(`timed out: ${describe()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
