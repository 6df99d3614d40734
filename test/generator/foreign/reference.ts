/**
 * The reference for coverage: what openapi-typescript (a devDependency)
 * makes of the same document: the names of `components["schemas"]` and
 * every `paths[path][method]` that is an operation (not `never`).
 */
import { readFileSync } from "node:fs";
import ts from "typescript";
import openapiTS, { astToString } from "openapi-typescript";

export interface Coverage {
  readonly schemas: string[];
  /** `GET /path` for each operation. */
  readonly operations: string[];
}

/** The members of interface `name` (top level) of a TypeScript source. */
function members(source: ts.SourceFile, name: string): ts.NodeArray<ts.TypeElement> | undefined {
  for (const statement of source.statements) {
    if (ts.isInterfaceDeclaration(statement) && statement.name.text === name) return statement.members;
  }
  return undefined;
}

const keyOf = (member: ts.TypeElement): string => {
  const name = member.name!;
  return ts.isIdentifier(name) || ts.isStringLiteral(name) ? name.text : name.getText();
};

export async function referenceCoverage(file: string): Promise<Coverage> {
  const text = astToString(await openapiTS(readFileSync(file, "utf8"), { silent: true }));
  const source = ts.createSourceFile("reference.ts", text, ts.ScriptTarget.ES2022, true);
  const schemas: string[] = [];
  for (const group of members(source, "components") ?? []) {
    if (
      keyOf(group) !== "schemas" ||
      !ts.isPropertySignature(group) ||
      !group.type ||
      !ts.isTypeLiteralNode(group.type)
    )
      continue;
    for (const schema of group.type.members) schemas.push(keyOf(schema));
  }
  // A Path Item `$ref` becomes `components["pathItems"]["Name"]`: its methods are that literal's.
  const pathItems = new Map<string, ts.TypeLiteralNode>();
  for (const group of members(source, "components") ?? []) {
    if (
      keyOf(group) !== "pathItems" ||
      !ts.isPropertySignature(group) ||
      !group.type ||
      !ts.isTypeLiteralNode(group.type)
    )
      continue;
    for (const item of group.type.members)
      if (ts.isPropertySignature(item) && item.type && ts.isTypeLiteralNode(item.type))
        pathItems.set(keyOf(item), item.type);
  }
  const literalOf = (type: ts.TypeNode | undefined): ts.TypeLiteralNode | undefined => {
    if (type === undefined) return undefined;
    if (ts.isTypeLiteralNode(type)) return type;
    if (!ts.isIndexedAccessTypeNode(type) || type.objectType.getText().replace(/\s/g, "") !== 'components["pathItems"]')
      return undefined;
    return ts.isLiteralTypeNode(type.indexType) && ts.isStringLiteral(type.indexType.literal)
      ? pathItems.get(type.indexType.literal.text)
      : undefined;
  };
  const operations: string[] = [];
  for (const pathMember of members(source, "paths") ?? []) {
    const literal = ts.isPropertySignature(pathMember) ? literalOf(pathMember.type) : undefined;
    if (literal === undefined) continue;
    for (const method of literal.members) {
      const key = keyOf(method);
      if (
        key === "parameters" ||
        !ts.isPropertySignature(method) ||
        !method.type ||
        method.type.kind === ts.SyntaxKind.NeverKeyword
      )
        continue;
      operations.push(`${key.toUpperCase()} ${keyOf(pathMember)}`);
    }
  }
  return { schemas: schemas.sort(), operations: operations.sort() };
}

/** The exported type names of a generated types.ts, and the method names of the client interface `client` in client.ts. */
export function generatedCoverage(
  typesTs: string,
  clientTs: string,
  client: string,
): { types: Set<string>; methods: Set<string> } {
  const types = new Set<string>();
  const typesSource = ts.createSourceFile("types.ts", typesTs, ts.ScriptTarget.ES2022, true);
  for (const statement of typesSource.statements) {
    if (
      (ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement)) &&
      statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)
    )
      types.add(statement.name.text);
  }
  const clientSource = ts.createSourceFile("client.ts", clientTs, ts.ScriptTarget.ES2022, true);
  const methods = new Set((members(clientSource, client) ?? []).map(keyOf));
  return { types, methods };
}
