import {
  Activity,
  BadgeCheck,
  Boxes,
  GitBranchPlus,
  HeartPulse,
  ListTree,
  type LucideIcon,
  Network,
  ScrollText,
  Server,
} from "lucide-react";

export type NavItem = { href: string; label: string; icon: LucideIcon; hint: string };
export type NavSection = { title: string; items: NavItem[] };

// The dashboard's map, grouped by what a person came to do.
export const NAV: NavSection[] = [
  {
    title: "Watch training",
    items: [
      { href: "/training", label: "Training", icon: Activity, hint: "Live runs, reward curves, progress" },
      { href: "/rollouts", label: "Rollouts", icon: ListTree, hint: "Tasks, attempts and their reasons" },
      { href: "/traces", label: "Traces", icon: Network, hint: "Spans as a table, tree and waterfall" },
      { href: "/runners", label: "Runners", icon: Server, hint: "Workers and their heartbeats" },
    ],
  },
  {
    title: "Decide releases",
    items: [
      { href: "/candidates", label: "Candidates", icon: GitBranchPlus, hint: "Receipts and the seven checks" },
      { href: "/approvals", label: "Approvals", icon: BadgeCheck, hint: "Signed decisions and rollbacks" },
      { href: "/resources", label: "Resources", icon: Boxes, hint: "Versions, pointers and diffs" },
    ],
  },
  {
    title: "Instance",
    items: [
      { href: "/audit", label: "Audit", icon: ScrollText, hint: "Hash-chained log of every change" },
      { href: "/status", label: "Status", icon: HeartPulse, hint: "Database, migrations, process" },
    ],
  },
];
