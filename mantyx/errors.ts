/**
 * The MANTYX names of the runtime's protocol-neutral errors, kept so that
 * code written against 0.2 and earlier compiles and runs unchanged: the same
 * classes and guards (`MantyxApiError` is `ApiError`). Their `name` is the
 * runtime's neutral one (`"ApiError"`, `"ConnectionError"`; CHANGELOG).
 */
export {
  ApiError as MantyxApiError,
  ConnectionError as MantyxConnectionError,
  isApiError as isMantyxApiError,
  isConnectionError as isMantyxConnectionError,
} from "../runtime/client/errors.js";
