// Signing in as a demo person in e2e tests: `await signInAs(page, "release_approver")`.
// Signs in through the real endpoint once per role and worker, then reuses the session cookie, so
// suites stay fast and far below the sign-in rate limit (10 attempts a minute per address).
import { test, type BrowserContext, type Page } from "@playwright/test";
import type { HumanRole } from "@/lib/auth/scopes";
import { DEMO_NAMES, DEMO_PASSWORD, demoEmail } from "@/lib/auth/demo-accounts";

export { DEMO_NAMES, DEMO_PASSWORD, demoEmail };

type Cookies = Awaited<ReturnType<BrowserContext["cookies"]>>;
const sessions = new Map<string, Cookies>();

async function stillValid(context: BrowserContext, baseURL: string): Promise<boolean> {
  const res = await context.request.get(`${baseURL}/api/auth/get-session`);
  return res.ok() && (await res.json()) !== null;
}

export async function signInAs(page: Page, role: HumanRole, baseURL = test.info().project.use.baseURL!): Promise<void> {
  const context = page.context();
  const key = `${baseURL} ${role}`;
  await context.clearCookies();
  const cached = sessions.get(key);
  if (cached) {
    await context.addCookies(cached);
    if (await stillValid(context, baseURL)) return;
    await context.clearCookies();
  }
  const res = await context.request.post(`${baseURL}/api/auth/sign-in/email`, {
    data: { email: demoEmail(role), password: DEMO_PASSWORD },
    headers: { origin: baseURL },
  });
  if (!res.ok()) throw new Error(`signing in as ${role} failed: ${res.status()} ${await res.text()}`);
  sessions.set(key, await context.cookies(baseURL));
}

/** Forget cached sessions (after a test signed one out, for instance). */
export function forgetSessions(): void {
  sessions.clear();
}
