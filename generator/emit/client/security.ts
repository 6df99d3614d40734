/**
 * The security schemes the generated client can send
 * (https://spec.openapis.org/oas/v3.1.0#security-scheme-object):
 * - `http` `bearer`, and `oauth2` / `openIdConnect` (whose access tokens are
 *   sent the same way): `Authorization: Bearer <token>`;
 * - `http` `basic`: `Authorization: Basic base64(user:password)`;
 * - `apiKey` in a header, the query or a cookie, under its `name`.
 * Anything else (`mutualTLS`, `http` `digest`, ...) is left out with a
 * warning: an operation that needs only such a scheme is sent without
 * credentials.
 */
import type { OpenAPIObject, OperationObject } from "openapi3-ts/oas31";
import { formatPointer, isPlainObject } from "../../load/json-pointer.js";
import { deref } from "../operations.js";

export type SchemeShape =
  | { readonly name: string; readonly kind: "bearer" | "basic"; readonly description: string }
  | {
      readonly name: string;
      readonly kind: "apiKey";
      readonly in: "header" | "query" | "cookie";
      readonly parameter: string;
      readonly description: string;
    };

export interface SecurityModel {
  /** Supported schemes, by name (sorted). */
  readonly schemes: readonly SchemeShape[];
  /** Schemes left out: pointer and why. */
  readonly unsupported: readonly { readonly pointer: string; readonly reason: string }[];
}

export function securityModel(doc: OpenAPIObject): SecurityModel {
  const declared = isPlainObject(doc.components?.securitySchemes) ? doc.components!.securitySchemes! : {};
  const schemes: SchemeShape[] = [];
  const unsupported: { pointer: string; reason: string }[] = [];
  for (const name of Object.keys(declared).sort()) {
    const scheme = deref<Record<string, unknown>>(doc, declared[name] as never);
    const description = typeof scheme.description === "string" ? scheme.description : "";
    const type = scheme.type;
    const httpScheme = typeof scheme.scheme === "string" ? scheme.scheme.toLowerCase() : "";
    if ((type === "http" && httpScheme === "bearer") || type === "oauth2" || type === "openIdConnect")
      schemes.push({ name, kind: "bearer", description });
    else if (type === "http" && httpScheme === "basic") schemes.push({ name, kind: "basic", description });
    else if (
      type === "apiKey" &&
      (scheme.in === "header" || scheme.in === "query" || scheme.in === "cookie") &&
      typeof scheme.name === "string"
    ) {
      schemes.push({ name, kind: "apiKey", in: scheme.in, parameter: scheme.name, description });
    } else {
      unsupported.push({
        pointer: formatPointer(["components", "securitySchemes", name]),
        reason: `the security scheme ${JSON.stringify(name)} (${String(type)}${httpScheme ? ` ${httpScheme}` : ""}) is not one the client sends (bearer, basic, oauth2/openIdConnect tokens, apiKey); operations that need only it are sent without credentials`,
      });
    }
  }
  return { schemes, unsupported };
}

/**
 * The operation's requirements (its own `security`, else the document's):
 * alternatives, each a list of scheme names that must all be sent; an
 * empty alternative means "no credentials needed". An alternative that
 * needs a scheme the client cannot send is dropped: it cannot be met.
 */
export function requirementsOf(doc: OpenAPIObject, op: OperationObject, model: SecurityModel): string[][] {
  const requirements = op.security ?? doc.security ?? [];
  const known = new Set(model.schemes.map((scheme) => scheme.name));
  return requirements
    .map((alternative) => Object.keys(alternative).sort())
    .filter((names) => names.every((name) => known.has(name)));
}

/**
 * Whether the client's `apiKey` option stands for every credential the
 * operations require, so the client takes no `credentials` by scheme and
 * bundles no per-scheme sending (runtime/client/credentials.ts): every
 * scheme is a bearer token (http bearer, oauth2, openIdConnect) or a key in
 * an `X-API-Key` header (`credentialHeader: "x-api-key"`), one of them a
 * bearer one (so the default `Authorization: Bearer` serves), and every
 * operation takes a credential (none with `security: []` or `[{}]`, where
 * `apiKey` would send one all the same) and each scheme alone (two bearer
 * schemes that different operations need are two credentials). The
 * MANTYX schema is such a schema: `bearerAuth` or `apiKeyHeader`, the same
 * key, on every operation.
 */
export function apiKeyStandsFor(
  doc: OpenAPIObject,
  operations: readonly OperationObject[],
  model: SecurityModel,
): boolean {
  const bearers = new Set(model.schemes.filter((s) => s.kind === "bearer").map((s) => s.name));
  const keys = new Set(
    model.schemes
      .filter((s) => s.kind === "apiKey" && s.in === "header" && s.parameter.toLowerCase() === "x-api-key")
      .map((s) => s.name),
  );
  if (bearers.size === 0 || bearers.size + keys.size !== model.schemes.length) return false;
  return operations.every((op) => {
    const alternatives = requirementsOf(doc, op, model);
    // No credential (`security: []`, or `[{}]`: nothing but the empty requirement): `apiKey` would send one all the same, `credentials` do not.
    if (alternatives.every((names) => names.length === 0)) return false;
    // Authentication optional: a key sent anyway is what `credentials` would send too.
    if (alternatives.some((names) => names.length === 0)) return true;
    // Each scheme alone: then they are one credential. Two that different operations need (a user's token, an admin's) are two.
    return model.schemes.every((scheme) =>
      alternatives.some((names) => names.length === 1 && names[0] === scheme.name),
    );
  });
}
