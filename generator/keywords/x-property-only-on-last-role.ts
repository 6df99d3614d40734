/**
 * `x-property-only-on-last-role: { property: P, role: R }`
 * (schema/CONVENTIONS.md, "Vendor keywords"): in an array of messages, only
 * the last item whose `role` is R may carry P. agent-runs-protocol.md §4.0.1:
 * attachments go on the last `user` message, "the only message whose
 * `attachments` are sent to the model"; anywhere else they would be dropped
 * without a word, so a client refuses to send them. Items that are not
 * objects carry nothing.
 */
import { _, type CodeKeywordDefinition, type KeywordCxt } from "ajv/dist/2020.js";

interface OnlyOnLast {
  property: string;
  role: string;
}

export const xPropertyOnlyOnLastRole: CodeKeywordDefinition = {
  keyword: "x-property-only-on-last-role",
  type: "array",
  schemaType: "object",
  metaSchema: {
    type: "object",
    required: ["property", "role"],
    properties: { property: { type: "string", minLength: 1 }, role: { type: "string", minLength: 1 } },
    additionalProperties: false,
  },
  error: {
    message: ({ params }) =>
      _`${"must carry "} + ${params.property} + ${" only on the last item with role "} + ${params.role} + ${" (item "} + ${params.index} + ${" has it)"}`,
    params: ({ params }) => _`{property: ${params.property}, role: ${params.role}, index: ${params.index}}`,
  },
  code(cxt: KeywordCxt) {
    const { gen, data } = cxt;
    const { property, role } = cxt.schema as OnlyOnLast;
    // One backward pass: the first item of the role seen from the end is the allowed one.
    const seenLast = gen.let("seenLast", false);
    const bad = gen.let("bad", -1);
    const i = gen.name("i");
    gen.for(_`let ${i} = ${data}.length - 1; ${i} >= 0; ${i}--`, () => {
      const item = gen.const("item", _`${data}[${i}]`);
      gen.if(_`${item} !== null && typeof ${item} == "object"`, () => {
        const isLast = gen.const("isLast", _`!${seenLast} && ${item}.role === ${role}`);
        gen.if(_`${item}[${property}] !== undefined && !${isLast}`, () => {
          gen.assign(bad, i);
          gen.break();
        });
        gen.if(isLast, () => gen.assign(seenLast, true));
      });
    });
    cxt.setParams({ property, role, index: bad });
    cxt.fail(_`${bad} !== -1`);
  },
};
