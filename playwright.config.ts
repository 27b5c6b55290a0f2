import { defineConfig } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "./e2e/chromium";

// The e2e server runs the production build on a throw-away database, so tests never touch ./data.
// It seeds the demo people (e2e/helpers/auth.ts signs in as any role). A second server on PORT+1 starts
// empty, for the first-run setup journey (e2e/auth-setup.spec.ts).
const PORT = Number(process.env.E2E_PORT ?? 3210);
const E2E_DB = process.env.E2E_DATABASE_URL ?? "file:./.tmp/e2e/lightgate.db";
export const EMPTY_PORT = PORT + 1;

export default defineConfig({
  testDir: "e2e",
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [["list"], ["json"]] : [["list"]],
  use: {
    // WebAuthn needs a domain as relying-party id: localhost, not 127.0.0.1.
    baseURL: `http://localhost:${PORT}`,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
  },
  projects: [{ name: "chromium", use: { browserName: "chromium" } }],
  // Started one after the other: the first builds when the sources changed, the second reuses the build.
  webServer: [
    {
      command: `rm -rf .tmp/e2e && mkdir -p .tmp/e2e && npx tsx scripts/start.ts`,
      url: `http://localhost:${PORT}/api/health`,
      reuseExistingServer: false,
      timeout: 180_000,
      env: {
        PORT: String(PORT),
        HOSTNAME: "127.0.0.1",
        DATABASE_URL: E2E_DB,
        LIGHTGATE_DEMO: "0",
        LIGHTGATE_DEMO_USERS: "1",
        // Every test signs in; the limit itself is tested in tests/integration/auth/sessions.test.ts.
        LIGHTGATE_SIGNIN_ATTEMPTS_PER_MINUTE: "1000",
        LIGHTGATE_ORIGIN: `http://localhost:${PORT}`,
        NEXT_TELEMETRY_DISABLED: "1",
      },
    },
    {
      command: `rm -rf .tmp/e2e-empty && mkdir -p .tmp/e2e-empty && npx tsx scripts/start.ts`,
      url: `http://localhost:${EMPTY_PORT}/api/health`,
      reuseExistingServer: false,
      timeout: 180_000,
      env: {
        PORT: String(EMPTY_PORT),
        HOSTNAME: "127.0.0.1",
        DATABASE_URL: "file:./.tmp/e2e-empty/lightgate.db",
        LIGHTGATE_DEMO: "0",
        LIGHTGATE_DEMO_USERS: "0",
        LIGHTGATE_ORIGIN: `http://localhost:${EMPTY_PORT}`,
        NEXT_TELEMETRY_DISABLED: "1",
      },
    },
  ],
});
