// PII redaction for support-ticket text, before anything reaches a training snapshot. Candidates are
// found with patterns and confirmed with maintained validators where one exists: validator.js for
// e-mail addresses, card numbers (Luhn check and issuer ranges), IBANs (ISO 13616 checksum) and IP
// addresses; libphonenumber-js (Google's metadata) for phone numbers. Street addresses and names
// after greetings, introductions and sign-offs are patterns. Phone candidates need a separator or a
// leading + / 00 — or a phone word just before them — so order numbers, ticket ids and dates stay.
import { findPhoneNumbersInText, type CountryCode } from "libphonenumber-js";
import validator from "validator";

export const PII_TYPES = ["email", "iban", "card", "ip", "phone", "address", "name"] as const;
export type PiiType = (typeof PII_TYPES)[number];
export type Redaction = { type: PiiType; start: number; end: number };
export type RedactionResult = { text: string; found: Redaction[]; counts: Record<PiiType, number> };

const TOKEN: Record<PiiType, string> = { email: "[EMAIL]", iban: "[IBAN]", card: "[CARD]", ip: "[IP]", phone: "[PHONE]", address: "[ADDRESS]", name: "[NAME]" };
const PHONE_COUNTRIES: CountryCode[] = ["US", "GB", "DE", "FR", "ES"];
const PHONE_CUE = /(?:call|phone|tel\.?|telephone|mobile|cell|number|whats ?app|reach me|text me)\W{0,12}$/i;
const NOT_NAMES = new Set(["team", "there", "all", "everyone", "everybody", "support", "sir", "madam", "folks", "guys", "again", "you", "so", "and", "for", "in", "again,", "hello", "hi", "thanks", "thank", "regards", "the", "a", "an", "customer", "service", "agent", "admin", "again.", "anyone", "friend", "friends", "y'all", "both", "mate", "dear"]);

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;
const IBAN = /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,4})?\b/g;
const CARD = /\b\d(?:[ -]?\d){12,18}\b/g;
const IPV4 = /\b\d{1,3}(?:\.\d{1,3}){3}\b/g;
const IPV6 = /\b(?:[0-9a-fA-F]{1,4}:){2,7}[0-9a-fA-F]{0,4}(?::[0-9a-fA-F]{1,4})*\b/g;
const STREET_EN = /\b\d{1,5}[A-Za-z]?\s+(?:[A-Z][a-z]+\.?\s+){1,3}(?:Street|St\.?|Avenue|Ave\.?|Road|Rd\.?|Boulevard|Blvd\.?|Lane|Ln\.?|Drive|Dr\.?|Court|Ct\.?|Way|Place|Pl\.?|Terrace|Close|Square)(?=[\s,.;!?)]|$)/g;
const STREET_DE = /\b[A-ZÄÖÜ][a-zäöüß]+(?:straße|strasse|str\.|weg|allee|platz|gasse|ring|damm)\s+\d{1,4}\s?[a-z]?\b/g;
const STREET_ES = /\b(?:Calle|Avenida|Avda\.|Plaza|Paseo|Rue|Boulevard|Avenue)\s+(?:(?:de|del|la|des|du)\s+)?[A-ZÁÉÍÓÚ][\wáéíóúñ'-]+(?:\s+[A-ZÁÉÍÓÚ][\wáéíóúñ'-]+){0,2},?\s+\d{1,4}\b/g;
const NAME_WORD = "[A-ZÀ-Þ][a-zà-ÿ'’]+(?:-[A-ZÀ-Þ][a-zà-ÿ'’]+)?";
const GREETING = new RegExp(`\\b(?:Hi|Hello|Hey|Dear|Good (?:morning|afternoon|evening))(?:\\s+(?:Mr|Mrs|Ms|Dr)\\.?)?\\s+(${NAME_WORD}(?:\\s+${NAME_WORD})?)`, "g");
// "I am …" / "This is …" alone name too many things ("I am Unable", "This is Urgent"): only with "from".
const INTRO = new RegExp(`\\b(?:[Mm]y name is|[Mm]y name's|Name:|[Ss]igned:?)\\s+(${NAME_WORD}(?:\\s+${NAME_WORD})?)|\\b(?:I am|I'm|This is)\\s+(${NAME_WORD}(?:\\s+${NAME_WORD})?)(?=\\s+(?:from|here)\\b)`, "g");
const SIGNOFF_CUES = ["Thanks", "Thank you", "Cheers", "Regards", "Best regards", "Kind regards", "Best", "Sincerely", "Yours", "Many thanks", "Saludos", "Un saludo", "Viele Grüße", "Beste Grüße", "Mit freundlichen Grüßen", "Gruß", "Cordialement", "Merci"];
// Sign-off words in either case ("thanks! Jane"); the name itself must still be capitalised.
const SIGNOFF = new RegExp(`\\b(?:${SIGNOFF_CUES.map((c) => `[${c[0]}${c[0]!.toLowerCase()}]${c.slice(1)}`).join("|")})[,!.]?\\s*(?:\\n|\\s|-{1,2})\\s*(${NAME_WORD}(?:\\s+${NAME_WORD})?)\\b`, "g");

function matches(text: string, re: RegExp, type: PiiType, confirm: (m: string) => boolean, group = 0): Redaction[] {
  const out: Redaction[] = [];
  for (const m of text.matchAll(re)) {
    const value = m[group]!;
    if (!confirm(value)) continue;
    const start = m.index! + m[0].indexOf(value);
    out.push({ type, start, end: start + value.length });
  }
  return out;
}

const digits = (s: string) => s.replace(/\D/g, "");

function phones(text: string): Redaction[] {
  // Digit groups shaped like an IBAN or a card number are never phone numbers, valid or not.
  const shaped = [...text.matchAll(IBAN), ...text.matchAll(CARD)].map((m) => [m.index!, m.index! + m[0].length] as const);
  const out: Redaction[] = [];
  for (const country of PHONE_COUNTRIES) {
    for (const p of findPhoneNumbersInText(text, country)) {
      const raw = text.slice(p.startsAt, p.endsAt);
      const international = /^\s*(?:\+|00)/.test(raw);
      const separated = /\d[\s().-]+\d/.test(raw) && digits(raw).length >= 9;
      const cued = PHONE_CUE.test(text.slice(Math.max(0, p.startsAt - 24), p.startsAt));
      if (/^\d{4}-\d{2}-\d{2}$/.test(raw.trim())) continue; // an ISO date, not a phone number
      if (shaped.some(([a, b]) => p.startsAt < b && a < p.endsAt)) continue;
      if (international || separated || cued) out.push({ type: "phone", start: p.startsAt, end: p.endsAt });
    }
  }
  return out;
}

function names(text: string): Redaction[] {
  const keep = (m: string) => !m.split(/\s+/).every((w) => NOT_NAMES.has(w.toLowerCase()));
  const intro = [...matches(text, INTRO, "name", (m) => m !== undefined && keep(m), 1), ...matches(text, INTRO, "name", (m) => m !== undefined && keep(m), 2)];
  return [...matches(text, GREETING, "name", keep, 1), ...intro, ...matches(text, SIGNOFF, "name", keep, 1)];
}

/** Finds PII spans (later types never overlap earlier, more specific ones). */
export function findPii(text: string): Redaction[] {
  const found: Redaction[] = [];
  const add = (rs: Redaction[]) => {
    for (const r of rs) if (!found.some((f) => r.start < f.end && f.start < r.end)) found.push(r);
  };
  add(matches(text, EMAIL, "email", (m) => validator.isEmail(m)));
  add(matches(text, IBAN, "iban", (m) => validator.isIBAN(m.replace(/ /g, ""))));
  add(matches(text, CARD, "card", (m) => validator.isCreditCard(m.replace(/[ -]/g, ""))));
  add(matches(text, IPV4, "ip", (m) => validator.isIP(m, 4)));
  add(matches(text, IPV6, "ip", (m) => m.includes("::") || m.split(":").length >= 6 ? validator.isIP(m, 6) : false));
  add(phones(text));
  add([...matches(text, STREET_EN, "address", () => true), ...matches(text, STREET_DE, "address", () => true), ...matches(text, STREET_ES, "address", () => true)]);
  add(names(text));
  return found.sort((a, b) => a.start - b.start);
}

/** Replaces every PII span with its type's token ([EMAIL], [PHONE], …). */
export function redactPii(text: string): RedactionResult {
  const found = findPii(text);
  let out = "";
  let at = 0;
  for (const r of found) {
    out += text.slice(at, r.start) + TOKEN[r.type];
    at = r.end;
  }
  out += text.slice(at);
  const counts = Object.fromEntries(PII_TYPES.map((t) => [t, found.filter((f) => f.type === t).length])) as Record<PiiType, number>;
  return { text: out, found, counts };
}
