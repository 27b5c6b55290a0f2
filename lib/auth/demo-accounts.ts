// The demo people (LIGHTGATE_DEMO only): one per human role, all with the same published password.
// Shared by the seeder, the sign-in page and the e2e helpers.
import type { HumanRole } from "./scopes";

export const DEMO_PASSWORD = "try-lightgate-demo";

export const DEMO_NAMES: Record<HumanRole, string> = {
  viewer: "Vivian Park",
  trainer: "Theo Brandt",
  policy_owner: "Priya Nair",
  canary_approver: "Carlos Mendes",
  release_approver: "Rosa Albers",
  admin: "Ada Quinn",
};

export function demoEmail(role: HumanRole): string {
  return `${role.replace(/_/g, "-")}@lightgate.example`;
}
