// The statistical distributions Lightgate's tests and detectors use, from jStat (a statistics library
// the field uses) rather than hand-rolled special functions.
import jstat from "jstat";

const { jStat } = jstat;

/** Standard normal CDF. */
export const normalCdf = (z: number): number => jStat.normal.cdf(z, 0, 1);
/** Standard normal quantile. */
export const normalQuantile = (p: number): number => jStat.normal.inv(p, 0, 1);
/** Student's t CDF with `dof` degrees of freedom (fractional dof, as Welch's test gives, allowed). */
export const tCdf = (t: number, dof: number): number => jStat.studentt.cdf(t, dof);
export const tQuantile = (p: number, dof: number): number => jStat.studentt.inv(p, dof);
/** Noncentral t CDF (statistical power of a t test). */
export const noncentralTCdf = (t: number, dof: number, ncp: number): number => jStat.noncentralt.cdf(t, dof, ncp);
/** Beta quantile (Clopper–Pearson intervals). */
export const betaQuantile = (p: number, a: number, b: number): number => jStat.beta.inv(p, a, b);
/** Chi-square quantile (the interval of a standard deviation). */
export const chiSquareQuantile = (p: number, dof: number): number => jStat.chisquare.inv(p, dof);
