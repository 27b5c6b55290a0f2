import {
  Activity,
  BadgeCheck,
  Boxes,
  BookLock,
  Database,
  FlaskConical,
  GitBranchPlus,
  HeartPulse,
  ListTree,
  type LucideIcon,
  Network,
  ScrollText,
  Server,
  ShieldCheck,
  Users,
} from "lucide-react";
import type { Scope } from "@/lib/auth/scopes";

/** `scope`: shown only to people who hold it (the server refuses the rest anyway); none: always shown. */
export type NavItem = { href: string; label: string; icon: LucideIcon; hint: string; scope?: Scope };
export type NavSection = { title: string; items: NavItem[] };

// The dashboard's map, grouped by what a person came to do.
export const NAV: NavSection[] = [
  {
    title: "Watch training",
    items: [
      { href: "/training", label: "Training", icon: Activity, hint: "Live runs, reward curves, progress", scope: "dashboard:read" },
      { href: "/rollouts", label: "Rollouts", icon: ListTree, hint: "Tasks, attempts and their reasons", scope: "dashboard:read" },
      { href: "/traces", label: "Traces", icon: Network, hint: "Spans as a table, tree and waterfall", scope: "dashboard:read" },
      { href: "/runners", label: "Runners", icon: Server, hint: "Workers and their heartbeats", scope: "dashboard:read" },
      { href: "/evaluations", label: "Evaluations", icon: FlaskConical, hint: "Protocols, metrics and A/B tests", scope: "dashboard:read" },
      { href: "/datasets", label: "Datasets", icon: Database, hint: "Snapshots, lineage and splits", scope: "dashboard:read" },
    ],
  },
  {
    title: "Decide releases",
    items: [
      { href: "/candidates", label: "Candidates", icon: GitBranchPlus, hint: "Receipts and the seven checks", scope: "dashboard:read" },
      { href: "/approvals", label: "Approvals", icon: BadgeCheck, hint: "Signed decisions and rollbacks", scope: "dashboard:read" },
      { href: "/resources", label: "Resources", icon: Boxes, hint: "Versions, pointers and diffs", scope: "dashboard:read" },
      { href: "/registries", label: "Registries", icon: BookLock, hint: "Evaluators, policies, exams: versions, diffs, publish", scope: "dashboard:read" },
    ],
  },
  {
    title: "Instance",
    items: [
      { href: "/audit", label: "Audit", icon: ScrollText, hint: "Hash-chained log of every change", scope: "audit:read" },
      { href: "/settings/people", label: "People", icon: Users, hint: "Accounts, roles and release-bot keys", scope: "users:manage" },
      { href: "/settings/security", label: "Security", icon: ShieldCheck, hint: "Your passkeys", scope: "account:self" },
      { href: "/status", label: "Status", icon: HeartPulse, hint: "Database, migrations, process" },
    ],
  },
];
