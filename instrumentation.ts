// Next.js start-up hook: in the Node.js runtime, start the store's watchdog timer (server/store/runtime.ts).
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { startStoreBackground } = await import("@/server/store/runtime");
    await startStoreBackground();
  }
}
