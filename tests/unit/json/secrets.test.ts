// The one rule for secret-named keys (lib/json/secrets.ts): by the key's last word, so `key`, `api_key`,
// `openaiApiKey` and `Authorization` are masked while `keyboard`, `monkey` and `max_tokens` are not.
import { describe, expect, it } from "vitest";
import { isSecretKey, MASK, maskSecrets } from "@/lib/json/secrets";

const SECRET = [
  "key", "KEY", "Key", "api_key", "apiKey", "APIKey", "api-key", "x-api-key", "apikey", "OPENAI_API_KEY", "openaiApiKey", "api_key_2", "key1",
  "private_key", "privateKey", "secretKey", "ssh_key", "signing.key", "token", "access_token", "accessToken", "authToken", "x-auth-token",
  "refresh_token", "csrfToken", "password", "PASSWORD", "db_password", "passwd", "passphrase", "secret", "client_secret", "clientSecret", "secrets",
  "authorization", "Authorization", "proxy-authorization", "http.request.header.authorization", "credentials", "aws_credential", "cookie", "set-cookie",
];
const HARMLESS = [
  "keyboard", "monkey", "turkey", "hotkey", "keys", "key_id", "keyId", "keyName", "max_tokens", "prompt_tokens", "gen_ai.usage.input_tokens", "tokenizer",
  "token_count", "tokenType", "password_policy", "secret_name", "public_key", "publicKey", "sort_key", "lightgate.step.state_key", "primary_key", "cache_key",
  "idempotency_key", "author", "authorized", "cookies_enabled", "name", "", "0",
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
    expect(JSON.parse(JSON.stringify(out))).toEqual(JSON.parse(`{"__proto__":{"key":"${MASK}"},"llm":{"api_key":"${MASK}","auth":{"token":"${MASK}"},"keyboard":"qwerty"},"list":[{"password":""},{"secret":null}],"at":"1970-01-01T00:00:00.000Z"}`));
    expect(Object.hasOwn(out, "__proto__")).toBe(true);
    expect(out.at).toBe(at);
  });
});
