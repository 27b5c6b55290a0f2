// Lifecycle of Lightgate's helper processes (trainer worker, runners): stop cleanly on SIGINT/SIGTERM, and
// exit on their own when the process that spawned them is gone — even if it was SIGKILLed and could not
// forward a signal — so `npm start` never leaves orphans.
export function stopSignal(label: string): AbortSignal {
  const controller = new AbortController();
  const stop = (why: string) => {
    if (controller.signal.aborted) return;
    console.log(`${label}: stopping (${why})`);
    controller.abort();
    // A stuck step must not keep the process alive after its parent asked it to go.
    setTimeout(() => process.exit(0), 5_000).unref();
  };
  process.once("SIGINT", () => stop("SIGINT"));
  process.once("SIGTERM", () => stop("SIGTERM"));
  const parent = Number(process.env.LIGHTGATE_PARENT_PID);
  if (Number.isInteger(parent) && parent > 1) {
    setInterval(() => {
      try {
        process.kill(parent, 0);
      } catch {
        stop(`parent ${parent} exited`);
      }
    }, 1_000).unref();
  }
  return controller.signal;
}
