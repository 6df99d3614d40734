/**
 * `x-last-non-system-role: R` (schema/CONVENTIONS.md, "Vendor keywords"):
 * after dropping the items whose `role` is `"system"`, the last item's `role`
 * equals R. An array with no such item fails (there is no last item to be R).
 * Items that are not objects count as having no role.
 */
import { _, type CodeKeywordDefinition, type KeywordCxt } from "ajv/dist/2020.js";

export const xLastNonSystemRole: CodeKeywordDefinition = {
  keyword: "x-last-non-system-role",
  type: "array",
  schemaType: "string",
  metaSchema: { type: "string", minLength: 1 },
  error: {
    // A Code message: the actual role may be absent (no non-system item).
    message: ({ params }) =>
      _`${`must have role ${JSON.stringify(params.role)} on the last non-system item (is `} + (${params.actual} === undefined ? "none" : JSON.stringify(${params.actual})) + ")"`,
    params: ({ params }) => _`{role: ${params.role}, actual: ${params.actual}}`,
  },
  code(cxt: KeywordCxt) {
    const { gen, data } = cxt;
    const role = cxt.schema as string;
    // Scan backwards: only the trailing run of system messages is visited.
    const last = gen.let("role");
    const i = gen.name("i");
    gen.for(_`let ${i} = ${data}.length - 1; ${i} >= 0; ${i}--`, () => {
      const item = gen.const("item", _`${data}[${i}]`);
      const itemRole = gen.const(
        "itemRole",
        _`${item} !== null && typeof ${item} == "object" ? ${item}.role : undefined`,
      );
      gen.if(_`${itemRole} !== "system"`, () => {
        gen.assign(last, itemRole);
        gen.break();
      });
    });
    cxt.setParams({ role, actual: last });
    cxt.fail(_`${last} !== ${role}`);
  },
};
