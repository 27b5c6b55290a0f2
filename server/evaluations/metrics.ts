// The seven evaluation metrics of the seed document, each from the protocol that measures it (or
// "not measured" with the protocol that would): success rate and quality from the locked held-out set,
// learning efficiency from the learning curve, retention and adaptation speed from few-shot adaptation,
// generalization from domain transfer (else temporal validation), stability from the k folds (else the
// end of the learning curve).
import { adaptationSpeed, generalization, learningEfficiency, retention, stability } from "@/server/trainers/evaluation/metrics";
import { sdInterval } from "@/server/trainers/evaluation/intervals";
import type { Ci, ScoreCi } from "./score-intervals";

export const METRIC_KEYS = ["success-rate", "quality", "learning-efficiency", "retention", "adaptation-speed", "generalization", "stability"] as const;
export type MetricKey = (typeof METRIC_KEYS)[number];

/**
 * `value` is the headline number (null when not measured); `ci` its 95 % interval where the units measured
 * are independent (tasks, folds), else null; `display` says both for people; `basis` how it was measured.
 */
export type MetricRow = { key: MetricKey; label: string; value: number | null; ci: Ci | null; display: string; basis: string };

const f3 = (v: number) => v.toFixed(3);
const pct = (v: number) => `${(v * 100).toFixed(1)} %`;
const sgn = (v: number) => `${v >= 0 ? "+" : "−"}${Math.abs(v).toFixed(3)}`;

export type Score = { meanReward: number; successRate: number };

/** The protocols' results the metrics are read from: these fields of an EvaluationReport (evaluation.ts). */
export type ProtocolResults = {
  heldOut: { digest: string; cases: number };
  learningCurve: { update: number; meanReward: number; successRate: number }[] | null;
  heldOutResult: (ScoreCi & { outcomeRate: number; outcomeRateCi: Ci; protectedCases: number; protectedPassed: number; protectedPassedCi: Ci | null; byFamily: { family: string; cases: number; passed: number; ci: Ci | null }[] }) | null;
  kFold: { k: number; folds: { fold: number; accuracy: number }[]; mean: number; sd: number; ci: Ci } | null;
  temporal: { cutAt: string; past: number; future: number } | null;
  /** `gapCi`: Welch interval of source-domain minus other-domain per-task reward. */
  domainTransfer: { source: string; trainedOn: string; domains: (ScoreCi & { domain: string; gap: number })[]; gapCi: Ci } | null;
  fewShot: { domain: string; support: number; curve: { step: number; accuracy: number }[]; otherDomainsBefore: number; otherDomainsAfter: number } | null;
};

export function deriveMetrics(r: ProtocolResults): MetricRow[] {
  const rows: MetricRow[] = [];
  const none = (key: MetricKey, label: string, needs: string) => rows.push({ key, label, value: null, ci: null, display: "not measured", basis: `needs ${needs}` });
  const h = r.heldOutResult;
  if (h) {
    rows.push({ key: "success-rate", label: "Success rate", value: h.successRate, ci: h.successRateCi, display: `${pct(h.successRate)} (95 % CI ${pct(h.successRateCi[0])} … ${pct(h.successRateCi[1])})`, basis: `${r.heldOut.cases} evaluation tasks; outcome reached and protected case passed; exact binomial interval` });
    rows.push({ key: "quality", label: "Quality", value: h.meanReward, ci: h.meanRewardCi, display: `${f3(h.meanReward)} (95 % CI ${f3(h.meanRewardCi[0])} … ${f3(h.meanRewardCi[1])})`, basis: "mean weighted reward per evaluation task (−1 … 1); t interval over tasks" });
  } else {
    none("success-rate", "Success rate", "the held-out protocol");
    none("quality", "Quality", "the held-out protocol");
  }

  const c = r.learningCurve;
  if (c && c.length > 0) {
    const e = learningEfficiency(c.map((p) => p.meanReward), 1);
    rows.push({ key: "learning-efficiency", label: "Learning efficiency", value: e.areaUnderCurve, ci: null, display: `AUC ${f3(e.areaUnderCurve)} · ${sgn(e.gainPer1kEpisodes / 1000)} per update`, basis: `mean of the learning curve over ${c.length} updates (60-task slice)` });
  } else none("learning-efficiency", "Learning efficiency", "a family config (a stored policy has no learning curve)");

  const fs = r.fewShot;
  if (fs) {
    const ret = retention(fs.otherDomainsBefore, fs.otherDomainsAfter);
    rows.push({ key: "retention", label: "Retention", value: ret.ratio, ci: null, display: `${pct(ret.ratio)} (${sgn(ret.change)})`, basis: `accuracy on the other domains after adapting to ${fs.domain}, against before` });
    const before = fs.curve[0]!.accuracy;
    const best = Math.max(...fs.curve.map((p) => p.accuracy));
    const speed = best > before ? adaptationSpeed(fs.curve.slice(1).map((p) => p.accuracy), before + 0.9 * (best - before)) : null;
    rows.push({
      key: "adaptation-speed",
      label: "Adaptation speed",
      value: speed,
      ci: null,
      display: speed === null ? "no gain" : `${speed} step${speed === 1 ? "" : "s"}`,
      basis: speed === null ? `${fs.domain} query accuracy did not rise in ${fs.curve.length - 1} steps` : `steps on ${fs.support} ${fs.domain} demonstrations to reach 90 % of the best gain (${pct(before)} → ${pct(best)})`,
    });
  } else {
    none("retention", "Retention", "the few-shot protocol");
    none("adaptation-speed", "Adaptation speed", "the few-shot protocol");
  }

  const dt = r.domainTransfer;
  const t = r.temporal;
  if (dt) {
    const targets = dt.domains.filter((d) => d.domain !== dt.source);
    const seen = dt.domains.find((d) => d.domain === dt.source)!.meanReward;
    const unseen = targets.reduce((a, d) => a + d.meanReward, 0) / targets.length;
    const g = generalization(seen, unseen);
    rows.push({ key: "generalization", label: "Generalization", value: g.gap, ci: dt.gapCi, display: `gap ${f3(g.gap)} (95 % CI ${f3(dt.gapCi[0])} … ${f3(dt.gapCi[1])})`, basis: `mean reward on ${dt.source} minus the other domains' (${f3(seen)} vs ${f3(unseen)}); Welch interval over tasks` });
  } else if (t) {
    const g = generalization(t.past, t.future);
    rows.push({ key: "generalization", label: "Generalization", value: g.gap, ci: null, display: `gap ${f3(g.gap)}`, basis: `imitation accuracy on past minus future demonstrations (${pct(t.past)} vs ${pct(t.future)})` });
  } else none("generalization", "Generalization", "domain transfer or temporal validation");

  if (r.kFold) {
    const s = stability(r.kFold.folds.map((x) => x.accuracy));
    const ci = sdInterval(s.sd, r.kFold.k);
    rows.push({ key: "stability", label: "Stability", value: s.sd, ci, display: `sd ${f3(s.sd)} (95 % CI ${f3(ci[0])} … ${f3(ci[1])}) · CV ${pct(s.coefficientOfVariation)}`, basis: `spread of accuracy over ${r.kFold.k} folds; χ² interval of an SD` });
  } else if (c && c.length >= 2) {
    const tail = c.slice(-10).map((p) => p.meanReward);
    const s = stability(tail);
    rows.push({ key: "stability", label: "Stability", value: s.sd, ci: null, display: `sd ${f3(s.sd)} · worst drop ${f3(s.worstDrop)}`, basis: `held-out reward over the last ${tail.length} updates` });
  } else none("stability", "Stability", "k-fold cross-validation or a learning curve");
  return rows;
}
