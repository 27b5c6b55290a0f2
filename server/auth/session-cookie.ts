// The session cookie's prefix (`lightgate.session_token`), apart from better-auth's instance so that code which
// only asks whether a request carries a session (cross-site checks, the refusal log) does not load it.
export const SESSION_COOKIE_PREFIX = "lightgate";
