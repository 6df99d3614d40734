/**
 * The value of the cross-field keywords (x-greater-than, x-not-greater-than,
 * x-equal-properties): a non-empty list of `{ property, <other> }` pairs of
 * property names of the same object.
 */
export function propertyPairsMetaSchema(other: string): object {
  return {
    type: "array",
    minItems: 1,
    items: {
      type: "object",
      required: ["property", other],
      properties: { property: { type: "string" }, [other]: { type: "string" } },
      additionalProperties: false,
    },
  };
}
