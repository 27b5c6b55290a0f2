// The part of jStat (https://github.com/jstat/jstat) Lightgate uses; the package ships no types.
declare module "jstat" {
  type Dist2 = { cdf(x: number, a: number): number; inv(p: number, a: number): number; pdf(x: number, a: number): number };
  export const jStat: {
    studentt: Dist2;
    normal: { cdf(x: number, mean: number, sd: number): number; inv(p: number, mean: number, sd: number): number };
    noncentralt: { cdf(x: number, dof: number, ncp: number): number };
    beta: { inv(p: number, a: number, b: number): number; cdf(x: number, a: number, b: number): number };
    chisquare: { inv(p: number, dof: number): number; cdf(x: number, dof: number): number };
    centralF: { cdf(x: number, d1: number, d2: number): number };
    mean(values: number[]): number;
    /** Standard deviation; `sample` divides by n − 1. */
    stdev(values: number[], sample?: boolean): number;
    /** Ranks, ties as midranks (1-based). */
    rank(values: number[]): number[];
    /** The k-th percentile (k in [0, 1]) of `values`, interpolated; `exclusive` leaves out both ends. */
    percentile(values: number[], k: number, exclusive?: boolean): number;
  };
  const pkg: { jStat: typeof jStat };
  export default pkg;
}
