/**
 * Redocly plugin for `npm run lint:schema`: lint schema/openapi.yaml as the
 * generator reads it. `x-enum-from-mapping: "#/components/schemas/Union"`
 * (schema/CONVENTIONS.md, "Vendor keywords the loader expands") stands for
 * `enum: <the union's mapping keys>`; left as is, a linter sees an empty
 * schema there (`not: {}` rejects every value), and flags valid examples.
 * This preprocessor expands it the way generator/load/enum-from-mapping.ts
 * does, before the rules run; the generator's own checks (a bad pointer, a
 * non-union, a keyword beside an `enum`) stay the generator's.
 */
const KEYWORD = "x-enum-from-mapping";

function expandEnumFromMapping() {
  return {
    any: {
      enter(node, ctx) {
        if (node === null || typeof node !== "object" || Array.isArray(node) || typeof node[KEYWORD] !== "string") return;
        const { node: union } = ctx.resolve({ $ref: node[KEYWORD] });
        const mapping = union && union.discriminator && union.discriminator.mapping;
        if (mapping === null || typeof mapping !== "object" || Object.hasOwn(node, "enum")) return;
        // Same key position as the keyword, as the generator's expansion.
        const entries = Object.entries(node).map(([key, value]) => (key === KEYWORD ? ["enum", Object.keys(mapping)] : [key, value]));
        for (const key of Object.keys(node)) delete node[key];
        for (const [key, value] of entries) node[key] = value;
      },
    },
  };
}

module.exports = function mantyxPlugin() {
  return {
    id: "mantyx",
    preprocessors: {
      oas3: { "expand-enum-from-mapping": expandEnumFromMapping },
    },
  };
};
