/** A JavaScript identifier (ASCII): what a component name, an operationId or a property key must be to be written bare in generated code. */
export const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
