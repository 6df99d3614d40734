/**
 * The document mock's credential check, as Stoplight Prism does it: an
 * operation's security requirements (its own `security`, else the
 * document's) are alternatives, each a set of schemes that must all be
 * sent; a request meeting none of them is answered `401 unauthorized`
 * before its body is read, with a `WWW-Authenticate` challenge per HTTP
 * scheme. Only the presence of a credential is checked, never its value
 * (the mock knows no secrets): an API key in its header, query parameter
 * or cookie; `Authorization: <scheme> <credentials>` for an `http` scheme
 * (`Basic`, `Bearer`, or any other scheme name); `Authorization: Bearer
 * <token>` for `oauth2` and `openIdConnect`. A `mutualTLS` scheme, which a
 * mock over plain HTTP cannot see, and a scheme the document does not
 * define count as met. An empty requirement (`{}`) lets anyone in.
 * Nothing here repeats a credential: the answer names the schemes and
 * where each goes.
 */
import type { IncomingMessage } from "node:http";
import type { OpenAPIObject, OperationObject } from "openapi3-ts/oas31";
import { isPlainObject } from "../../load/json-pointer.js";
import { resolveRef } from "./values.js";

/** Why a request is refused: the message (each alternative, what it needs) and the challenges for `WWW-Authenticate`. */
export interface MissingCredentials {
  readonly message: string;
  readonly challenges: readonly string[];
}

/** The value of the request's cookie `name`, if sent. */
function cookie(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** `Authorization: <scheme> <something>` was sent (scheme names are case-insensitive, RFC 9110 11.1). */
function authorization(req: IncomingMessage, scheme: string): boolean {
  const value = req.headers.authorization ?? "";
  return (
    value.length > scheme.length + 1 &&
    value.slice(0, scheme.length + 1).toLowerCase() === `${scheme.toLowerCase()} ` &&
    value.slice(scheme.length + 1).trim() !== ""
  );
}

/** One scheme: met by the request, where its credential goes (for the message), and its challenge (HTTP schemes). */
function schemeCheck(
  scheme: unknown,
  req: IncomingMessage,
  url: URL,
): { met: boolean; where: string; challenge?: string } {
  if (!isPlainObject(scheme)) return { met: true, where: "" };
  const type = scheme["type"];
  if (type === "apiKey") {
    const name = String(scheme["name"] ?? "");
    const at = scheme["in"];
    if (at === "query") return { met: (url.searchParams.get(name) ?? "") !== "", where: `the query parameter ${name}` };
    if (at === "cookie") return { met: (cookie(req, name) ?? "") !== "", where: `the cookie ${name}` };
    const value = req.headers[name.toLowerCase()];
    return { met: value !== undefined && String(value).trim() !== "", where: `the header ${name}` };
  }
  if (type === "http") {
    const name = String(scheme["scheme"] ?? "");
    const shown = /^basic$/i.test(name) ? "Basic" : /^bearer$/i.test(name) ? "Bearer" : name;
    return {
      met: authorization(req, name),
      where: `Authorization: ${shown} …`,
      challenge: shown === "Basic" ? 'Basic realm="mock"' : shown,
    };
  }
  if (type === "oauth2" || type === "openIdConnect")
    return { met: authorization(req, "Bearer"), where: "Authorization: Bearer …", challenge: "Bearer" };
  // mutualTLS (a client certificate a plain-HTTP mock cannot see), or a type of a later version.
  return { met: true, where: "" };
}

/** What the request lacks to meet the operation's security requirements, or undefined when it meets one of them (or there are none). */
export function missingCredentials(
  doc: OpenAPIObject,
  op: OperationObject,
  req: IncomingMessage,
  url: URL,
): MissingCredentials | undefined {
  const requirements = (op.security ?? doc.security) as unknown;
  if (!Array.isArray(requirements) || requirements.length === 0) return undefined;
  const schemes = (doc.components?.securitySchemes ?? {}) as Record<string, unknown>;
  const alternatives: string[] = [];
  const challenges = new Set<string>();
  for (const requirement of requirements) {
    if (!isPlainObject(requirement)) continue;
    const wanted: string[] = [];
    let met = true;
    for (const name of Object.keys(requirement)) {
      const check = schemeCheck(resolveRef(doc, schemes[name]), req, url);
      if (check.challenge !== undefined) challenges.add(check.challenge);
      if (!check.met) met = false;
      if (check.where !== "") wanted.push(`${name} (${check.where})`);
    }
    if (met) return undefined;
    alternatives.push(wanted.join(" and "));
  }
  if (alternatives.length === 0) return undefined;
  return {
    message: `Missing credentials: send ${alternatives.length === 1 ? alternatives[0] : `one of: ${alternatives.join("; ")}`}.`,
    challenges: [...challenges],
  };
}
