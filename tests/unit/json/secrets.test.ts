// The one rule for secrets in stored JSON (lib/json/secrets.ts): secret-named keys by the key's last word, so
// `key`, `api_key`, `openaiApiKey`, `Authorization`, Sentry's default sensitive fields (`auth`, `bearer`,
// `mysql_pwd`, …) and `pass` are masked while `keyboard`, `monkey`, `max_tokens` and `pass_rate` are not; the
// pass-through request fields (`extra_body`, `extra_headers`) whole; and credentials inside any string value
// (URL userinfo, `Bearer <token>`).
import { describe, expect, it } from "vitest";
import { isSecretKey, MASK, maskSecrets } from "@/lib/json/secrets";

const SECRET = [
  "key", "KEY", "Key", "api_key", "apiKey", "APIKey", "api-key", "x-api-key", "apikey", "OPENAI_API_KEY", "openaiApiKey", "api_key_2", "key1",
  "private_key", "privateKey", "secretKey", "ssh_key", "signing.key", "token", "access_token", "accessToken", "authToken", "x-auth-token",
  "refresh_token", "csrfToken", "password", "PASSWORD", "db_password", "passwd", "passphrase", "secret", "client_secret", "clientSecret", "secrets",
  "authorization", "Authorization", "proxy-authorization", "http.request.header.authorization", "credentials", "aws_credential", "cookie", "set-cookie",
  // Sentry's default sensitive fields (docs.sentry.io, server-side data scrubbing) and their spellings
  "auth", "Auth", "basic_auth", "proxyAuth", "x-auth", "oauth", "bearer", "Bearer", "bearer_token", "mysql_pwd", "pwd", "DB_PWD", "privatekey", "otp", "totp",
  "pass", "db_pass", "smtpPass", "PASS", "extra_body", "extraBody", "extra_headers",
];
const HARMLESS = [
  "keyboard", "monkey", "turkey", "hotkey", "keys", "key_id", "keyId", "keyName", "max_tokens", "prompt_tokens", "gen_ai.usage.input_tokens", "tokenizer",
  "token_count", "tokenType", "password_policy", "secret_name", "public_key", "publicKey", "sort_key", "lightgate.step.state_key", "primary_key", "cache_key",
  "idempotency_key", "author", "authorized", "cookies_enabled", "name", "", "0",
  "pass_rate", "passed", "pass_at_k", "bypass", "compass", "passes", "auth_type_count", "authority", "bearer_count", "body", "extra", "extra_info", "session_id", "url",
];

describe("isSecretKey", () => {
  it.each(SECRET)("%s is a secret", (key) => expect(isSecretKey(key)).toBe(true));
  it.each(HARMLESS)("%s is not", (key) => expect(isSecretKey(key)).toBe(false));
});

describe("maskSecrets", () => {
  it("masks non-empty secret values at any depth, whole objects included, and keeps the rest", () => {
    const at = new Date(0);
    const value = JSON.parse('{"__proto__":{"key":"k"},"llm":{"api_key":"sk-1","auth":{"token":{"v":1}},"keyboard":"qwerty"},"list":[{"password":""},{"secret":null}]}') as Record<string, unknown>;
    const out = maskSecrets({ ...value, at }) as Record<string, unknown>;
    expect(JSON.parse(JSON.stringify(out))).toEqual(JSON.parse(`{"__proto__":{"key":"${MASK}"},"llm":{"api_key":"${MASK}","auth":"${MASK}","keyboard":"qwerty"},"list":[{"password":""},{"secret":null}],"at":"1970-01-01T00:00:00.000Z"}`));
    expect(Object.hasOwn(out, "__proto__")).toBe(true);
    expect(out.at).toBe(at);
  });

  it("masks the values under bearer, auth, pass and extra_body, but not a boolean `pass`", () => {
    const value = { bearer: "b-1", auth: { user: "u", password: "p" }, db_pass: "p-2", pass: true, extra_body: { "x-goog-api-client": "g-3", n: 1 }, pass_rate: 0.5 };
    expect(maskSecrets(value)).toEqual({ bearer: MASK, auth: MASK, db_pass: MASK, pass: true, extra_body: MASK, pass_rate: 0.5 });
  });

  it("masks credentials inside any string value: URL userinfo and Bearer tokens", () => {
    const value = {
      endpoint: "https://alice:s3cr3t@llm.example.com/v1?x=1",
      note: ["see postgres://svc:pw-42@db.internal:5432/app and redis://:r3d1s@cache:6379", "clone https://ghp_tok3n@github.com/o/r.git"],
      header: "Authorization: Bearer abc.def-123 then more",
      plain: "https://llm.example.com/v1 and mailto:bob@example.com, a@b in text",
    };
    const out = maskSecrets(value) as typeof value;
    expect(out.endpoint).toBe(`https://${MASK}@llm.example.com/v1?x=1`);
    expect(out.note).toEqual([`see postgres://${MASK}@db.internal:5432/app and redis://${MASK}@cache:6379`, `clone https://${MASK}@github.com/o/r.git`]);
    expect(out.header).toBe(`Authorization: Bearer ${MASK} then more`);
    expect(out.plain).toBe(value.plain);
    for (const secret of ["s3cr3t", "pw-42", "r3d1s", "ghp_tok3n", "abc.def-123"]) expect(JSON.stringify(out)).not.toContain(secret);
    expect(maskSecrets("https://u:p@h/")).toBe(`https://${MASK}@h/`);
  });
});
