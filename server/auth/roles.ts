// Role assignments: which role a person holds, for one agent or for every agent ("*" in the table).
import { HUMAN_ROLES, type HumanGrant, type HumanRole } from "@/lib/auth/scopes";
import type { Db, Tx } from "@/server/db/client";

export const EVERY_AGENT = "*";

export function isHumanRole(role: string): role is HumanRole {
  return (HUMAN_ROLES as readonly string[]).includes(role);
}

export function toGrant(row: { role: string; agent: string }): HumanGrant | null {
  if (!isHumanRole(row.role)) return null; // a role since removed from the table grants nothing
  return { role: row.role, agent: row.agent === EVERY_AGENT ? null : row.agent };
}

export async function loadGrants(db: Db | Tx, userId: string): Promise<HumanGrant[]> {
  const rows = await db.roleAssignment.findMany({ where: { userId }, orderBy: [{ role: "asc" }, { agent: "asc" }] });
  return rows.map(toGrant).filter((g): g is HumanGrant => g !== null);
}
