import { describe, expect, it } from "vitest";
import { findPii, redactPii } from "@/server/datasets/pii";

// Real-looking support tickets. Each case lists the text, the redacted result expected, and what must survive.
const CASES: { text: string; redacted: string }[] = [
  {
    text: "Hi Sarah,\nI was charged twice on card 4111 1111 1111 1111 last week. Please refund to DE89 3704 0044 0532 0130 00.\nThanks,\nMarkus Weber",
    redacted: "Hi [NAME],\nI was charged twice on card [CARD] last week. Please refund to [IBAN].\nThanks,\n[NAME]",
  },
  {
    text: "Call me on +1 (415) 555-2671 or email jane.doe@example.com. I live at 221 Baker Street, London. My name is Jane Doe.",
    redacted: "Call me on [PHONE] or email [EMAIL]. I live at [ADDRESS], London. My name is [NAME].",
  },
  {
    text: "Bitte löschen Sie mein Konto. Adresse: Musterstraße 12, 10115 Berlin. Tel: 030 12345678. Viele Grüße, Jürgen",
    redacted: "Bitte löschen Sie mein Konto. Adresse: [ADDRESS], 10115 Berlin. Tel: [PHONE]. Viele Grüße, [NAME]",
  },
  { text: "Hola, vivo en Calle de Alcalá 45, Madrid. Mi móvil: 612 34 56 78. Saludos, María", redacted: "Hola, vivo en [ADDRESS], Madrid. Mi móvil: [PHONE]. Saludos, [NAME]" },
  { text: "Dear Mr. Smith, the refund never arrived. Best regards, -- Peter Miller", redacted: "Dear Mr. [NAME], the refund never arrived. Best regards, -- [NAME]" },
  { text: "Login blocked from 203.0.113.7 and 2001:0db8:85a3:0000:0000:8a2e:0370:7334 this morning.", redacted: "Login blocked from [IP] and [IP] this morning." },
  { text: "Mastercard 5555-5555-5555-4444 and Amex 3782 822463 10005 both got declined.", redacted: "Mastercard [CARD] and Amex [CARD] both got declined." },
  { text: "You can reach me at 07700 900123 after 5pm, or on +44 20 7946 0958.", redacted: "You can reach me at [PHONE] after 5pm, or on [PHONE]." },
  { text: "This is Anna from accounting. Thanks!\nAnna-Lena Schmidt", redacted: "This is [NAME] from accounting. Thanks!\n[NAME]" },
];

// Near misses: things that look like PII but are not, and must survive untouched.
const NEAR_MISSES = [
  "Hello team, the app crashes since version 2.10.3 went out.",
  "Order #4155552671 still not shipped, ticket 123456, invoice 20240315001 dated 2024-03-15.",
  "Card 4111 1111 1111 1112 was declined (that one fails the Luhn check).",
  "The IBAN GB00 WEST 1234 5698 7654 32 on the invoice has a wrong checksum.",
  "Server 999.1.1.1 is not an address and the build ran at 10:30:45.",
  "Thanks, Support — hi there, hello everyone.",
  "Email me at the usual address, not at support@ (that bounces).",
  "I am Unable to log in; this is Urgent. Dear Customer Service, please help.",
];

describe("PII redaction on support-ticket text", () => {
  for (const [i, c] of CASES.entries()) {
    it(`redacts every kind of PII in ticket ${i + 1}`, () => {
      expect(redactPii(c.text).text).toBe(c.redacted);
    });
  }

  it("leaves near misses alone: version numbers, order and ticket ids, dates, Luhn-failing cards, bad IBANs, impossible IPs, greetings without names", () => {
    for (const text of NEAR_MISSES) expect(findPii(text), text).toEqual([]);
  });

  it("counts what it redacted by type", () => {
    const r = redactPii(CASES[1]!.text);
    expect(r.counts).toEqual({ email: 1, iban: 0, card: 0, ip: 0, phone: 1, address: 1, name: 1 });
    expect(r.found.map((f) => f.type)).toEqual(["phone", "email", "address", "name"]);
  });
});
