/**
 * Whether a media type is JSON: `application/json` or a `+json` one
 * (`application/merge-patch+json`, `application/problem+json`), with or
 * without parameters. The one rule the generator (which bodies, parameters
 * and answers are typed as JSON) and the client (which bodies it encodes
 * as JSON) share.
 */
export function isJsonMediaType(media: string): boolean {
  return /^application\/([\w.-]+\+)?json\s*(;|$)/i.test(media);
}
