/**
 * Credentials by security scheme (`ClientOptions.credentials`), for the
 * clients of schemas whose schemes `apiKey` cannot stand for (several that
 * an operation needs together, basic, a key in the query, a cookie or a
 * header other than `X-API-Key`): generated code passes
 * `schemeCredentials(schemes)` to `HttpClient` only for such a schema, so
 * other clients bundle none of this.
 */
import type { Credential, CredentialSupport, SecurityScheme } from "./operation.js";
import { secretForms } from "./internal/redact.js";

/** The secret a credential is sent as: the token or key, or a basic one's password. */
export const secretOf = (credential: Credential): string =>
  typeof credential == "string" ? credential : credential.password;

/** Sends the credentials of the schemes `schemes` (the schema's, by name) that each operation's security requires. */
export const schemeCredentials =
  (schemes: Readonly<Record<string, SecurityScheme>>): CredentialSupport =>
  (credentials, secrets) => {
    // Every form a credential is sent in is redacted from errors: as given
    // (with its encodings, internal/redact.ts) from here; a basic scheme's
    // whole token, however short, from the Authorization header a call sends
    // it in (core.ts `addHeaders`).
    for (const name in credentials) {
      const credential = credentials[name];
      if (credential != null) secrets.push(...secretForms(secretOf(credential)));
    }
    return ({ security }, query, headers, need) => {
      // An empty alternative (`{}`: authentication optional) is taken only when no other is held: a held token is sent.
      for (const name of security?.find(
        (names) => names.length > 0 && names.every((name) => credentials[name] !== undefined && schemes[name]),
      ) ?? []) {
        const scheme = schemes[name]!;
        const credential = credentials[name]!;
        if (scheme[0] == "bearer") headers.authorization = `Bearer ${secretOf(credential)}`;
        else if (scheme[1] == "header") headers[scheme[2]!] = secretOf(credential);
        else need(name).credential(scheme, credential, query, headers);
      }
    };
  };
