/**
 * The MANTYX names of the runtime's protocol-neutral errors, kept so that
 * code written against 0.2 and earlier compiles and runs unchanged: the same
 * classes and guards (`MantyxApiError` is `ApiError`). The MANTYX client's
 * errors carry its brand in their `name` (`"MantyxApiError"`,
 * `"MantyxConnectionError"`), as before.
 */
export {
  ApiError as MantyxApiError,
  ConnectionError as MantyxConnectionError,
  isApiError as isMantyxApiError,
  isConnectionError as isMantyxConnectionError,
} from "../runtime/client/errors.js";
