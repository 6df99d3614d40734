/**
 * `ClientBase`: `HttpClient` as code generated for codegen/v1 revisions 1
 * to 6 builds it, `super(options, version, pathOptions, schemes)`, every
 * client taking `credentials` by scheme. Code generated from revision 7 on
 * extends `HttpClient` and passes `schemeCredentials` only where `apiKey`
 * cannot stand for the schemes (./credentials.ts).
 */
import { HttpClient } from "./core.js";
import type { ClientOptions, SecurityScheme } from "./operation.js";
import { schemeCredentials } from "./credentials.js";

export class ClientBase extends HttpClient {
  constructor(
    options: ClientOptions,
    version: string,
    pathOptions: Readonly<Record<string, string>> = {},
    schemes: Readonly<Record<string, SecurityScheme>> = {},
  ) {
    super(options, version, pathOptions, schemeCredentials(schemes));
  }
}
