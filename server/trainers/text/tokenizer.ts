// The text policy's tokenizer: OpenAI's cl100k_base byte-pair encoding through js-tiktoken (pure JavaScript, its
// ranks inside the npm package — nothing downloaded). Its 100k ids are far more than a ticket desk uses, so an
// encoder keeps embedding rows only for the ids it has met (encoder.ts `vocab`). The ranks are parsed on first use
// (~1 s, once per process), and each text's ids are cached: the desk's texts are templated.
import { Tiktoken } from "js-tiktoken/lite";
import cl100k from "js-tiktoken/ranks/cl100k_base";

export const TOKENIZER = "cl100k_base" as const;

let encoder: Tiktoken | null = null;
const cache = new Map<string, number[]>();

/** cl100k_base ids of a text. */
export function tokenize(text: string): number[] {
  let ids = cache.get(text);
  if (ids) return ids;
  encoder ??= new Tiktoken(cl100k);
  ids = encoder.encode(text);
  // Templated texts repeat; a long one is tokenized each time rather than kept.
  if (text.length <= 4_096) {
    if (cache.size > 20_000) cache.clear();
    cache.set(text, ids);
  }
  return ids;
}
