// People: creation (with a password and roles), role grants and revocations, deactivation. Every change
// is written together with its audit row in one transaction.
import { hashPassword } from "better-auth/crypto";
import { passwordProblems } from "@/lib/auth/password-policy";
import { HUMAN_ROLES, type HumanGrant } from "@/lib/auth/scopes";
import { appendAudit, AUDIT_LOCK, type AuditActor } from "@/server/audit/audit-log";
import type { Database, Db, Tx } from "@/server/db/client";
import { badInput, DomainError } from "@/server/errors";
import { newId } from "@/server/digest";
import { EVERY_AGENT, isHumanRole, loadGrants } from "./roles";

export type NewUser = { name: string; email: string; password: string; grants: { role: string; agent: string | null }[] };
export type UserSummary = { id: string; name: string; email: string; disabledAt: Date | null; createdAt: Date; grants: HumanGrant[]; passkeys: number };

const AGENT_NAME = /^[A-Za-z0-9][A-Za-z0-9._:/-]{0,127}$/;

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

function checkGrant(grant: { role: string; agent: string | null }): asserts grant is HumanGrant {
  if (!isHumanRole(grant.role)) throw badInput("role", `"${grant.role}" is not a role a person can hold (${HUMAN_ROLES.join(", ")})`);
  if (grant.agent !== null && !AGENT_NAME.test(grant.agent)) throw badInput("agent", "an agent name is 1–128 letters, digits or . _ : / -");
}

/** Validates and hashes outside any transaction (hashing takes ~0.2 s); the caller then writes. */
export async function prepareUser(input: NewUser) {
  const email = normaliseEmail(input.email);
  const name = input.name.trim();
  if (!name) throw badInput("name", "is required");
  if (!/^[^\s@]+@[^\s@]+$/.test(email)) throw badInput("email", "is not an email address");
  const problems = passwordProblems(input.password, { email, name });
  if (problems.length) throw badInput("password", problems.join(" "));
  const grants = input.grants.map((g) => {
    checkGrant(g);
    return g;
  });
  return { id: newId("usr"), name, email, grants, passwordHash: await hashPassword(input.password) };
}

/** Writes a prepared user, its credential account and its roles, and the audit row, inside `tx`. */
export async function insertUser(tx: Tx, by: AuditActor, user: Awaited<ReturnType<typeof prepareUser>>, action = "user.create") {
  if (await tx.user.findUnique({ where: { email: user.email }, select: { id: true } })) {
    throw new DomainError("CONFLICT", `email: ${user.email} already has an account`, "email");
  }
  await tx.user.create({ data: { id: user.id, name: user.name, email: user.email, emailVerified: true } });
  await tx.authAccount.create({ data: { id: newId("acc"), accountId: user.id, providerId: "credential", userId: user.id, password: user.passwordHash } });
  const grants = dedupe(user.grants);
  for (const g of grants) {
    await tx.roleAssignment.create({ data: { id: newId("ra"), userId: user.id, role: g.role, agent: g.agent ?? EVERY_AGENT, createdBy: by.id } });
  }
  await appendAudit(tx, { actor: by, action, target: { type: "user", id: user.id }, after: { name: user.name, email: user.email, grants } });
  return { id: user.id, email: user.email, name: user.name };
}

function dedupe(grants: HumanGrant[]): HumanGrant[] {
  const seen = new Map(grants.map((g) => [`${g.role}@${g.agent ?? EVERY_AGENT}`, g]));
  return [...seen.values()];
}

export async function createUser(database: Database, by: AuditActor, input: NewUser) {
  const prepared = await prepareUser(input);
  return database.transaction((tx) => insertUser(tx, by, prepared), { locks: [AUDIT_LOCK, `user:${prepared.email}`] });
}

export async function listUsers(db: Db): Promise<UserSummary[]> {
  const users = await db.user.findMany({ orderBy: { createdAt: "asc" }, include: { roles: true, _count: { select: { passkeys: true } } } });
  return users.map((u) => ({
    id: u.id,
    name: u.name,
    email: u.email,
    disabledAt: u.disabledAt,
    createdAt: u.createdAt,
    grants: u.roles.flatMap((r) => (isHumanRole(r.role) ? [{ role: r.role, agent: r.agent === EVERY_AGENT ? null : r.agent }] : [])),
    passkeys: u._count.passkeys,
  }));
}

async function requireUser(tx: Tx, userId: string) {
  const user = await tx.user.findUnique({ where: { id: userId } });
  if (!user) throw new DomainError("NOT_FOUND", `userId: no person ${userId}`, "userId");
  return user;
}

type GrantInput = { role: string; agent: string | null };

export const grantRole = (database: Database, by: AuditActor, userId: string, grant: GrantInput) => changeRole(database, by, userId, grant, "grant");
export const revokeRole = (database: Database, by: AuditActor, userId: string, grant: GrantInput) => changeRole(database, by, userId, grant, "revoke");

/** Adds or removes one role assignment with its audit row (before/after grants); a no-op writes nothing. */
async function changeRole(database: Database, by: AuditActor, userId: string, grant: GrantInput, change: "grant" | "revoke") {
  checkGrant(grant);
  return database.transaction(
    async (tx) => {
      await requireUser(tx, userId);
      const before = await loadGrants(tx, userId);
      const key = { userId, role: grant.role, agent: grant.agent ?? EVERY_AGENT };
      if (change === "grant") {
        if (await tx.roleAssignment.findUnique({ where: { userId_role_agent: key } })) return before;
        await tx.roleAssignment.create({ data: { id: newId("ra"), ...key, createdBy: by.id } });
      } else {
        if (key.role === "admin" && key.agent === EVERY_AGENT) await keepOneAdmin(tx, userId);
        if ((await tx.roleAssignment.deleteMany({ where: key })).count === 0) return before;
      }
      const after = await loadGrants(tx, userId);
      const what = change === "grant" ? { granted: grant } : { revoked: grant };
      await appendAudit(tx, { actor: by, action: `role.${change}`, target: { type: "user", id: userId }, before: { grants: before }, after: { grants: after, ...what } });
      return after;
    },
    { locks: [AUDIT_LOCK, `roles:${userId}`, "admins"] },
  );
}

/** The instance must keep one active admin, or nobody could ever manage people again. */
async function keepOneAdmin(tx: Tx, leavingUserId: string) {
  if (!(await tx.roleAssignment.findUnique({ where: { userId_role_agent: { userId: leavingUserId, role: "admin", agent: EVERY_AGENT } } }))) return;
  const others = await tx.roleAssignment.count({ where: { role: "admin", agent: EVERY_AGENT, userId: { not: leavingUserId }, user: { disabledAt: null } } });
  if (others === 0) throw new DomainError("PRECONDITION_FAILED", "this is the last active admin; make someone else admin first");
}

export async function setUserDisabled(database: Database, by: AuditActor, userId: string, disabled: boolean) {
  if (disabled && by.id === userId) throw new DomainError("PRECONDITION_FAILED", "you cannot deactivate yourself");
  return database.transaction(
    async (tx) => {
      const user = await requireUser(tx, userId);
      if (Boolean(user.disabledAt) === disabled) return;
      if (disabled) await keepOneAdmin(tx, userId);
      await tx.user.update({ where: { id: userId }, data: { disabledAt: disabled ? new Date() : null } });
      if (disabled) await tx.authSession.deleteMany({ where: { userId } });
      await appendAudit(tx, {
        actor: by,
        action: disabled ? "user.deactivate" : "user.reactivate",
        target: { type: "user", id: userId },
        before: { disabledAt: user.disabledAt?.toISOString() ?? null },
        after: { disabledAt: disabled ? "now" : null, sessionsRevoked: disabled },
      });
    },
    { locks: [AUDIT_LOCK, `roles:${userId}`, "admins"] },
  );
}
