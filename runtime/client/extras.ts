/**
 * What only some operations need in a request, as code an operation entry
 * carries (`Operation.extras`): its query, header and cookie parameters,
 * serialised as their styles say, a body that is not JSON, and credentials that go elsewhere than
 * `Authorization: Bearer` or an API-key header (basic, an API key in the
 * query or a cookie). Generated operation functions pass it only in the
 * entries that need it; a program calling none of those bundles none of it.
 */
import type {
  CallParams,
  Credential,
  HeaderStyle,
  OperationExtras,
  ParamsSpec,
  PathStyle,
  QueryStyle,
  SecurityScheme,
} from "./operation.js";
import { isJsonMediaType } from "./media.js";
import { secretOf } from "./credentials.js";

/** Adds `name=value` (value URL-encoded) to the call's `cookie` header. */
function addCookie(headers: Record<string, string>, name: string, value: string): void {
  const cookie = `${name}=${encodeURIComponent(value)}`;
  headers.cookie = headers.cookie ? `${headers.cookie}; ${cookie}` : cookie;
}

/**
 * A header or cookie parameter's text as its style says (`HeaderStyle`):
 * JSON; or an array's items, an object's keys and values (`k=v` pairs with
 * explode), joined by commas; a scalar as it is.
 */
const headerText = (value: unknown, style: HeaderStyle = "simple"): string =>
  style == "json"
    ? JSON.stringify(value)
    : Array.isArray(value)
      ? value.join(",")
      : typeof value == "object"
        ? Object.entries(value as object)
            .filter(([, v]) => v != null)
            .map(([k, v]) => (style == "explode" ? `${k}=${v}` : `${k},${v}`))
            .join(",")
        : String(value);

/** Header or cookie parameters by name with their style: a list (revision 4's form) names `simple` ones. */
const styled = (spec: ParamsSpec["header"]): Readonly<Record<string, HeaderStyle>> =>
  Array.isArray(spec)
    ? Object.fromEntries(spec.map((name) => [name, "simple"]))
    : ((spec ?? {}) as Readonly<Record<string, HeaderStyle>>);

/** Appends one query parameter as its style says (an undefined or null value is left out). */
function addQuery(query: URLSearchParams, name: string, value: unknown, style: QueryStyle): void {
  if (value == null) return;
  if (style == "json") query.append(name, JSON.stringify(value));
  else if (Array.isArray(value)) {
    if (style == "form" || style == "deep") for (const item of value) query.append(name, String(item));
    else query.append(name, value.join(style == "csv" ? "," : style == "pipe" ? "|" : " "));
  } else if (typeof value == "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v != null);
    if (style == "deep") for (const [key, v] of entries) query.append(`${name}[${key}]`, String(v));
    else if (style == "form") for (const [key, v] of entries) query.append(key, String(v));
    else query.append(name, entries.flatMap(([key, v]) => [key, String(v)]).join(","));
  } else query.append(name, String(value));
}

/**
 * A path parameter's text (`PathStyle`, RFC 6570's simple, label and path-style
 * expansions): every name, key and value URL-encoded, the separators not.
 */
function pathText(name: string, value: unknown, style: PathStyle): string {
  const enc = (v: unknown): string => encodeURIComponent(String(v));
  if (style == "json") return enc(JSON.stringify(value));
  const explode = style == "explode" || style == "labelExplode" || style == "matrixExplode";
  const matrix = style == "matrix" || style == "matrixExplode";
  const prefix = matrix ? ";" : style == "simple" || style == "explode" ? "" : ".";
  if (Array.isArray(value)) {
    const items = value.filter((v) => v != null).map(enc);
    if (!matrix) return prefix + items.join(explode ? prefix || "," : ",");
    return explode ? items.map((item) => `;${enc(name)}=${item}`).join("") : `;${enc(name)}=${items.join(",")}`;
  }
  if (typeof value == "object" && value !== null) {
    const entries = Object.entries(value).filter(([, v]) => v != null);
    if (explode) return prefix + entries.map(([k, v]) => `${enc(k)}=${enc(v)}`).join(prefix || ",");
    return prefix + (matrix ? `${enc(name)}=` : "") + entries.flatMap(([k, v]) => [enc(k), enc(v)]).join(",");
  }
  return prefix + (matrix ? `${enc(name)}=` : "") + enc(value);
}

export const operationExtras: OperationExtras = {
  pathText,
  params(
    spec: ParamsSpec,
    given: CallParams | undefined,
    query: URLSearchParams,
    headers: Record<string, string>,
  ): void {
    const styles = spec.query ?? {};
    for (const name in styles) addQuery(query, name, given?.query?.[name], styles[name]!);
    const header = styled(spec.header);
    for (const name in header) {
      const value = given?.header?.[name];
      if (value != null) headers[name] = headerText(value, header[name]);
    }
    const cookie = styled(spec.cookie);
    for (const name in cookie) {
      const value = given?.cookie?.[name];
      if (value != null) addCookie(headers, name, headerText(value, cookie[name]));
    }
  },
  credential(
    scheme: SecurityScheme,
    credential: Credential,
    query: URLSearchParams,
    headers: Record<string, string>,
  ): void {
    const secret = secretOf(credential);
    if (scheme[0] == "basic") headers.authorization = `Basic ${basicToken(credential)}`;
    else if (scheme[1] == "query") query.append(scheme[2]!, secret);
    else addCookie(headers, scheme[2]!, secret);
  },
  // A JSON media type other than application/json (`application/merge-patch+json`)
  // is JSON-encoded and sent with its own type. Any other body is sent as
  // given: FormData and URLSearchParams set their own content type (with the
  // multipart boundary); a media range (`*/*`, `image/*`) is no content
  // type, so fetch's own (a Blob's type) goes, or none.
  body: (body: unknown, media: string): readonly [BodyInit, string?] =>
    isJsonMediaType(media)
      ? [JSON.stringify(body), media]
      : body instanceof URLSearchParams ||
          (typeof FormData != "undefined" && body instanceof FormData) ||
          media.includes("*")
        ? [body as BodyInit]
        : [body as BodyInit, media],
};

/** A basic scheme's `user:password` in base64, from its UTF-8 bytes (btoa alone takes Latin-1 only); a string credential is the user name, with no password. */
const basicToken = (credential: Credential): string => {
  const { username, password } = typeof credential == "string" ? { username: credential, password: "" } : credential;
  return btoa(String.fromCharCode(...new TextEncoder().encode(`${username}:${password}`)));
};
