// The agent named by an /agents/<agent>[/…] page, decoded exactly once from the request's own path (the params'
// value when the path is not at hand). null when the path is not this page's, or the name cannot be looked up
// (empty, NUL, too long): the page answers 404 instead of asking the database.
import "server-only";
import { headers } from "next/headers";
import { PATH_HEADER } from "@/lib/auth/public-paths";
import { decodePathSegments, pathNameProblem } from "@/lib/http/path-segments";

export async function agentFromPath(fallback: string, tail: readonly string[] = []): Promise<string | null> {
  const path = (await headers()).get(PATH_HEADER);
  const segments = path ? decodePathSegments(path.split("?")[0]!) : ["agents", fallback, ...tail];
  if (!segments || segments.length !== 2 + tail.length || segments[0] !== "agents" || tail.some((t, i) => segments[2 + i] !== t)) return null;
  const agent = segments[1]!;
  return pathNameProblem(agent, "agent") ? null : agent;
}

/** A query parameter given once, as a string; null when absent; false when repeated (a link no page makes). */
export function singleParam(value: string | string[] | undefined): string | null | false {
  if (value === undefined) return null;
  return Array.isArray(value) ? false : value;
}
