// Bodies near their route's limit reach the handler whole through the production build. Next.js buffers a
// body for the proxy (proxy.ts) only up to 64 KiB and silently cuts the rest, so a route that takes bigger
// bodies must never pass through the proxy: a 600 KiB tRPC call must be judged on all of its input.
import { expect, test } from "@playwright/test";
import { signInAs } from "./helpers/auth";

test("a 600 KiB tRPC input arrives whole, and one over 1 MiB is refused with 413 naming the limit", async ({ page, baseURL }) => {
  await signInAs(page, "trainer");
  // A mutation (POST carries the body; a query answers POST with 405) whose input ends with a bad field.
  const call = (bytes: number) =>
    page.request.post(`${baseURL}/api/trpc/trainers.startRun`, {
      headers: { "content-type": "application/json", origin: baseURL! },
      data: JSON.stringify({ json: { family: "ppo", seed: "bodies", updates: 1, config: { note: "x".repeat(bytes), learningRate: "fast" } } }),
    });
  const whole = await call(600 * 1024);
  // The config was read to its end: the field after the long string is the one named.
  expect(whole.status()).toBe(400);
  const error = ((await whole.json()) as { error: { json: { message: string } } }).error.json;
  expect(error.message).toMatch(/learningRate/);
  const over = await call(1100 * 1024);
  expect(over.status()).toBe(413);
  expect(await over.text()).toMatch(/1 MiB|1,048,576|limit/i);
});
