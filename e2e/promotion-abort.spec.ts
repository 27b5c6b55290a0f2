// The abort, in Chromium on its own server: a desk candidate passes the gate through real runner and verifier
// processes; a canary approver signs the canary step; the honest runners stop and a rogue runner (its own
// process, e2e/helpers/rogue-runner.ts) serves the canary stage by calling `wipe_customer`, a tool outside the
// boundary. The gate run sees the breach in the spans and the canary guard moves the canary pointer back to the
// exact parent, signed. The timeline shows the aborted stage with its reason and the guard's move as current;
// the agent's pointer history marks the guard abort.
import { expect as baseExpect, test } from "@playwright/test";
import { expectTimelineAt, shootAgentHistory, shootTimeline } from "./helpers/timeline";
import { PromotionWorld } from "./helpers/promotion-world";

const expect = baseExpect.configure({ timeout: 30_000 });
const world = new PromotionWorld(Number(process.env.E2E_PORT ?? 3210) + 4, ".tmp/e2e-abort");
const SHOTS = ".tmp/screens/timeline";

test.describe.configure({ mode: "serial" });
test.beforeAll(async () => {
  test.setTimeout(480_000);
  await world.up();
});
test.afterAll(() => world.stopAll());

test("a breach in the canary stage aborts it: the guard moves the canary back, the timeline and the pointer history say so", async ({ browser }) => {
  test.setTimeout(480_000);
  const { seeded } = world;
  const carl = await world.withPasskey(browser, "canary_approver");
  await carl.goto(`${world.base}/candidates/${seeded.candidateId}`);
  await expectTimelineAt(carl, { state: "ready-for-canary", kind: "canary-approval", title: "Canary approval" });

  // Only the rogue runner serves from here on.
  world.stop("runner-1");
  world.stop("runner-2");
  world.start("rogue-runner", "e2e/helpers/rogue-runner.ts", [world.base], { LIGHTGATE_RUNNER_KEY: seeded.runnerKey });

  await carl.getByTestId("approve-button").click();
  await carl.getByTestId("sign-approve").click();
  await expect(carl.getByTestId("approve-outcome")).toContainText("Signed and committed");
  const stage = await world.withDb((db) => db.gateRun.findFirstOrThrow({ where: { candidateId: seeded.candidateId, kind: "canary-stage" } }));
  await world.runDone(stage.id, 240_000);

  await carl.reload();
  const state = await carl.getByTestId("timeline").getAttribute("data-state");
  expect(state).toBe("canary-aborted"); // the guard's abort is the stage's own end, not a person's rollback
  await expectTimelineAt(carl, { state: state!, kind: "aborted", title: "Canary aborted by the guard" });
  await expect(carl.getByTestId("timeline-current")).toContainText("Lightgate canary guard");
  // The stage seals (with its stop) after the guard's move: it shows just above it, failed, with the reason.
  const aborted = carl.locator('[data-testid="timeline-cycle"][data-latest="true"] [data-kind="canary-stage"]');
  await expect(aborted).toHaveAttribute("data-status", "failed");
  await expect(aborted).toContainText("wipe_customer");
  const canary = await carl.request.get(`${world.base}/v1/pointers/helpdesk/canary`);
  expect(await canary.json()).toMatchObject({ digest: seeded.parent.digest });
  await shootTimeline(carl, `${SHOTS}/10-aborted`);

  await carl.getByTestId("agent-history-link").click();
  const guard = carl.locator('[data-testid="pointer-move"][data-guard="true"]');
  await expect(guard).toHaveCount(1);
  await expect(guard).toContainText("guard abort");
  await expect(guard).toContainText("wipe_customer");
  await shootAgentHistory(carl, `${SHOTS}/11-agent-pointer-history-abort`);
  await carl.context().close();
});
