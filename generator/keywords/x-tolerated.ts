/**
 * `x-tolerated` (schema/CONVENTIONS.md, "Two validation levels"): never
 * written in a schema. The receive level derives it
 * (generator/emit/validators/receive-level.ts) from the two ways a schema
 * states a documented rule that real servers break and the official SDKs
 * read anyway:
 *
 * - `x-strict-only: { section }` on a subschema: `{ section, rule }`, the
 *   subschema (as written) checked without asserting;
 * - `x-receive-default: { section, members }`: `{ section, read }`, each
 *   member with its default, the member to read instead (`from`) and what
 *   its own schema asks (`type`, `minimum`).
 *
 * The compiled code never fails. It runs after every other keyword of its
 * schema (`post`), so only on an object that passed them (a union branch
 * that fails on its tag reports nothing and changes nothing). When the rule
 * is broken (the subschema fails, or a member is absent or breaks its own
 * schema), it calls the runtime's `tolerated(instancePath, section)`, which
 * the typed event layer collects and reports once through its warning hook
 * (runtime/validation/helpers.ts, runtime/events/decode.ts). Then each
 * member whose value is absent or not of its default's JSON type is read
 * as `from`'s value (when that is of the type) or the default, in place:
 * the value a client reads always has what its type promises.
 */
import { _, type CodeKeywordDefinition, type KeywordCxt } from "ajv/dist/2020.js";
import { Name, not, strConcat, type Code } from "ajv/dist/compile/codegen/index.js";
import { tolerated } from "@mantyx/wire-types/codegen/v1";

/** ajv's name of the instance path a compiled function is called with (ajv/dist/compile/names). */
const INSTANCE_PATH = new Name("instancePath");

/** The module and export generated code calls it by (generator/emit/validators/runtime.ts maps it to the runtime contract). */
export const TOLERATED_REQUIRE = "@mantyx/wire-types/runtime/validation";

/** One member read as documented. */
export interface ToleratedRead {
  readonly default: string | number | boolean;
  readonly from?: string | undefined;
  readonly type: "integer" | "number" | "string" | "boolean";
  readonly minimum?: number | undefined;
}

export interface Tolerated {
  readonly section: string;
  readonly rule?: object | boolean | undefined;
  readonly read?: Readonly<Record<string, ToleratedRead>> | undefined;
}

/** The JSON type of `value` as a test of `v`: number (finite), string or boolean. */
function sameTypeAs(v: Code | Name, value: string | number | boolean): Code {
  return typeof value === "number" ? _`typeof ${v} == "number" && isFinite(${v})` : _`typeof ${v} == ${typeof value}`;
}

/** What a member's own schema asks of `v`: its `type`, and `minimum` when given. */
function memberCheck(v: Name, read: ToleratedRead): Code {
  const type =
    read.type === "integer"
      ? _`typeof ${v} == "number" && isFinite(${v}) && !(${v} % 1)`
      : read.type === "number"
        ? _`typeof ${v} == "number" && isFinite(${v})`
        : _`typeof ${v} == ${read.type}`;
  return read.minimum === undefined ? type : _`${type} && ${v} >= ${read.minimum}`;
}

export const xTolerated: CodeKeywordDefinition = {
  keyword: "x-tolerated",
  schemaType: "object",
  post: true,
  trackErrors: true,
  code(cxt: KeywordCxt) {
    const { gen, data, it } = cxt;
    const { section, rule, read } = cxt.schema as Tolerated;
    const report = gen.scopeValue("func", { ref: tolerated, code: _`require(${TOLERATED_REQUIRE}).tolerated` });
    gen.if(_`${data} && typeof ${data} == "object" && !Array.isArray(${data})`, () => {
      const broken = gen.let("broken", false);
      if (rule !== undefined) {
        const valid = gen.name("valid");
        cxt.subschema(
          { keyword: "x-tolerated", schemaProp: "rule", compositeRule: true, createErrors: false, allErrors: false },
          valid,
        );
        // The rule's (empty) errors are not this schema's: it never fails.
        cxt.reset();
        gen.if(not(valid), () => gen.assign(broken, true));
      }
      for (const [member, r] of Object.entries(read ?? {})) {
        const v = gen.const("v", _`${data}[${member}]`);
        gen.if(not(memberCheck(v, r)), () => gen.assign(broken, true));
        gen.if(not(sameTypeAs(v, r.default)), () => {
          if (r.from === undefined) gen.assign(_`${data}[${member}]`, _`${r.default}`);
          else {
            const f = gen.const("f", _`${data}[${r.from}]`);
            gen.assign(_`${data}[${member}]`, _`${sameTypeAs(f, r.default)} ? ${f} : ${r.default}`);
          }
        });
      }
      gen.if(broken, () => gen.code(_`${report}(${strConcat(INSTANCE_PATH, it.errorPath)}, ${section})`));
    });
  },
};
