// Where one locked-gate case's parent-vs-candidate traces live: each id is one path segment, encoded (a case id
// may hold `/`, `?`, `#` or `%`); the page decodes them exactly once from its own path.
export function caseTracesHref(candidateId: string, caseId: string): string {
  return `/candidates/${encodeURIComponent(candidateId)}/cases/${encodeURIComponent(caseId)}`;
}
