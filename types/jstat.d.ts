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
  };
  const pkg: { jStat: typeof jStat };
  export default pkg;
}
