/**
 * File and export names derived from component names, through the
 * component's TypeScript type name (types/names.ts `typeName`): a component
 * `Links-Booking` is the type `LinksBooking`, validated by
 * `validateLinksBooking` in `validators/links-booking.js`.
 */
import { typeName } from "../types/names.js";

/** `RunCreateRequest` -> `run-create-request`, `A2aToolRef` -> `a2a-tool-ref`, `JSONValue` -> `json-value`. */
export function kebabCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1-$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1-$2")
    .toLowerCase();
}

/** The named export of component `name`'s validator. */
export function validatorName(name: string): string {
  return `validate${typeName(name)}`;
}

/** The named export of the all-errors build of component `name`'s validator. */
export function allErrorsName(name: string): string {
  return `${validatorName(name)}AllErrors`;
}

/** The module (in validators/, without `.js`) of component `name`'s validator. */
export function validatorFile(name: string): string {
  // `$` and `_` are legal in a type name and in a file name; only the case is folded.
  return kebabCase(typeName(name)).replace(/\$/g, "-");
}

/** The module (without `.js`) of that build. */
export function allErrorsFile(name: string): string {
  return `${validatorFile(name)}.all-errors`;
}

/** The named export of the receive-level build of component `name`'s validator (./receive-level.ts). */
export function receiveName(name: string): string {
  return `${validatorName(name)}Receive`;
}

/** The module (without `.js`) of that build. */
export function receiveFile(name: string): string {
  return `${validatorFile(name)}.receive`;
}
