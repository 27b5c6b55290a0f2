// The bounded numbers of a trainer's run config, each refusal naming its field (the form shows it as it is).
import { z } from "zod";

/** An integer in [min, max]. */
export const intIn = (name: string, min: number, max: number) => z.number().int(`${name} must be an integer`).min(min, `${name} must be ≥ ${min}`).max(max, `${name} must be ≤ ${max}`);
/** A number in [min, max]. */
export const numIn = (name: string, min: number, max: number) => z.number().min(min, `${name} must be ≥ ${min}`).max(max, `${name} must be ≤ ${max}`);
/** intIn with a default. */
export const intField = (name: string, min: number, max: number, dflt: number) => intIn(name, min, max).default(dflt);
/** numIn with a default. */
export const numField = (name: string, min: number, max: number, dflt: number) => numIn(name, min, max).default(dflt);
