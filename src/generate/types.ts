import type * as TS from 'typescript';
import type { Project } from './project';

/**
 * The declared type of a parameter, property or result as a fact the generated module can write as a
 * type hint; or why it has none. Mirrors the type table of docs/schema-mapping.md from the TypeScript side.
 */

/** Globals written by name. */
export type GlobalName = 'String' | 'Number' | 'Boolean' | 'BigInt' | 'Date' | 'URL' | 'Uint8Array' | 'Buffer';

export type TypeFact =
  | { readonly kind: 'global'; readonly name: GlobalName }
  | { readonly kind: 'class'; readonly decl: TS.ClassDeclaration }
  | { readonly kind: 'enum'; readonly decl: TS.EnumDeclaration }
  | { readonly kind: 'literals'; readonly values: readonly string[] }
  | { readonly kind: 'array' | 'set'; readonly of: TypeFact }
  | { readonly kind: 'dictionary'; readonly of: TypeFact; readonly map: boolean }
  | { readonly kind: 'nullable'; readonly of: TypeFact };

export type Mapped =
  | { readonly fact: TypeFact }
  | { readonly problem: { readonly code: 'OMCG0002' | 'OMCG0005'; readonly message: string } }
  /** A class from a library: left to the run time, which sees its constructor. */
  | { readonly unknown: true };

const LIBRARY_SCALARS = new Set<string>(['Date', 'URL', 'Uint8Array', 'Buffer']);

/** A declared type split into its `undefined` part (optional) and the rest. */
export interface Declared {
  readonly parts: readonly TS.Type[];
  readonly optional: boolean;
}

export function declared(project: Project, type: TS.Type): Declared {
  const { ts } = project;
  const parts = type.isUnion() ? type.types : [type];
  const isUndefined = (t: TS.Type) => (t.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Void)) !== 0;
  return { parts: parts.filter((t) => !isUndefined(t)), optional: parts.some(isUndefined) };
}

/** String literal types as written in an annotation (through type aliases), to keep the source order. */
export function literalOrder(project: Project, node: TS.Node | undefined): readonly string[] {
  const { ts, checker } = project;
  const found: string[] = [];
  const seen = new Set<TS.Node>();
  const visit = (n: TS.Node): void => {
    if (seen.has(n) || seen.size > 1000) return;
    seen.add(n);
    if (ts.isLiteralTypeNode(n) && ts.isStringLiteral(n.literal)) found.push(n.literal.text);
    if (ts.isTypeReferenceNode(n)) {
      const alias = checker.getSymbolAtLocation(n.typeName);
      const target = project.target(alias);
      for (const d of target?.declarations ?? []) if (ts.isTypeAliasDeclaration(d)) visit(d.type);
    }
    ts.forEachChild(n, visit);
  };
  if (node) visit(node);
  return found;
}

function problem(code: 'OMCG0002' | 'OMCG0005', message: string): Mapped {
  return { problem: { code, message } };
}

function wrap(inner: Mapped, make: (of: TypeFact) => TypeFact, element: string): Mapped {
  if ('fact' in inner) return { fact: make(inner.fact) };
  if ('problem' in inner) return problem('OMCG0005', `the ${element} type has no schema: ${inner.problem.message}`);
  return inner;
}

function enumOf(project: Project, t: TS.Type): TS.EnumDeclaration | undefined {
  const { ts } = project;
  const decl = t.getSymbol()?.declarations?.[0];
  if (decl && ts.isEnumMember(decl)) return decl.parent;
  return decl && ts.isEnumDeclaration(decl) ? decl : undefined;
}

/** Maps a declared type whose `undefined` part is already removed (`parts`), for a parameter, property or result. */
export function mapParts(project: Project, parts: readonly TS.Type[], order: readonly string[]): Mapped {
  const isNull = (t: TS.Type) => (t.flags & (project.ts.TypeFlags.Null | project.ts.TypeFlags.Undefined)) !== 0;
  const rest = parts.filter((t) => !isNull(t));
  const inner = mapUnion(project, rest, order);
  if (rest.length === parts.length || !('fact' in inner)) return inner;
  return { fact: { kind: 'nullable', of: inner.fact } };
}

function mapUnion(project: Project, types: readonly TS.Type[], order: readonly string[]): Mapped {
  const { ts, checker } = project;
  const F = ts.TypeFlags;
  if (types.length === 1) return mapSingle(project, types[0], order);
  if (types.length === 0) return problem('OMCG0002', '`null` or `undefined` alone has no schema.');
  if (types.every((t) => t.flags & F.BooleanLiteral)) return { fact: { kind: 'global', name: 'Boolean' } };
  const enums = new Set(types.map((t) => (t.flags & F.EnumLiteral ? enumOf(project, t) : undefined)));
  const [only] = enums;
  if (enums.size === 1 && only) return { fact: { kind: 'enum', decl: only } };
  if (types.every((t) => t.flags & F.StringLiteral && !(t.flags & F.EnumLiteral))) {
    return {
      fact: {
        kind: 'literals',
        values: ordered(
          types.map((t) => (t as TS.StringLiteralType).value),
          order,
        ),
      },
    };
  }
  if (types.every((t) => t.flags & F.NumberLiteral && !(t.flags & F.EnumLiteral))) return { fact: { kind: 'global', name: 'Number' } };
  return problem('OMCG0002', `the union ${types.map((t) => checker.typeToString(t)).join(' | ')} has no schema.`);
}

function ordered(values: readonly string[], order: readonly string[]): readonly string[] {
  const rank = (v: string) => (order.includes(v) ? order.indexOf(v) : order.length);
  return [...values].sort((a, b) => rank(a) - rank(b));
}

function mapWhole(project: Project, type: TS.Type, order: readonly string[]): Mapped {
  return mapParts(project, type.isUnion() ? type.types : [type], order);
}

function mapSingle(project: Project, t: TS.Type, order: readonly string[]): Mapped {
  const { ts, checker } = project;
  const F = ts.TypeFlags;
  const text = checker.typeToString(t);
  if (t.flags & (F.Any | F.Unknown)) return problem('OMCG0002', `\`${text}\` has no schema.`);
  if (t.flags & F.EnumLiteral || t.flags & F.Enum) {
    const decl = enumOf(project, t);
    if (decl) return { fact: { kind: 'enum', decl } };
  }
  if (t.flags & F.StringLiteral) return { fact: { kind: 'literals', values: [(t as TS.StringLiteralType).value] } };
  if (t.flags & (F.String | F.TemplateLiteral | F.StringMapping)) return { fact: { kind: 'global', name: 'String' } };
  if (t.flags & (F.Number | F.NumberLiteral)) return { fact: { kind: 'global', name: 'Number' } };
  if (t.flags & (F.BigInt | F.BigIntLiteral)) return { fact: { kind: 'global', name: 'BigInt' } };
  if (t.flags & (F.Boolean | F.BooleanLiteral)) return { fact: { kind: 'global', name: 'Boolean' } };
  if (t.flags & F.TypeParameter) return problem('OMCG0002', `the type parameter ${text} has no schema.`);
  if (!(t.flags & F.Object)) return problem('OMCG0002', `\`${text}\` has no schema.`);

  const symbol = t.getSymbol();
  const origin = project.originOf(symbol);
  if (checker.isArrayType(t)) {
    return wrap(mapWhole(project, checker.getTypeArguments(t as TS.TypeReference)[0], order), (of) => ({ kind: 'array', of }), 'element');
  }
  if (checker.isTupleType(t)) return problem('OMCG0002', `the tuple ${text} has no schema.`);
  const args = (t as TS.TypeReference).target ? checker.getTypeArguments(t as TS.TypeReference) : [];
  if (origin?.from === 'library') {
    if (LIBRARY_SCALARS.has(origin.name)) return { fact: { kind: 'global', name: origin.name as GlobalName } };
    if ((origin.name === 'Set' || origin.name === 'ReadonlySet') && args.length === 1) {
      return wrap(mapWhole(project, args[0], order), (of) => ({ kind: 'set', of }), 'element');
    }
    if ((origin.name === 'Map' || origin.name === 'ReadonlyMap') && args.length === 2) {
      if (!(args[0].flags & F.String)) return problem('OMCG0002', `${text} has no schema: dictionaries are keyed by string.`);
      return wrap(mapWhole(project, args[1], order), (of) => ({ kind: 'dictionary', of, map: true }), 'value');
    }
    if (origin.name === 'Promise' || origin.name === 'PromiseLike') return problem('OMCG0002', `a ${text} parameter has no schema.`);
    if (symbol && symbol.flags & ts.SymbolFlags.Class) return { unknown: true };
  }
  const decl = symbol?.declarations?.find(ts.isClassDeclaration);
  if (decl && !decl.getSourceFile().isDeclarationFile) return { fact: { kind: 'class', decl } };
  if (t.getCallSignatures().length > 0 || t.getConstructSignatures().length > 0)
    return problem('OMCG0002', `the function type ${text} has no schema.`);
  const indexes = checker.getIndexInfosOfType(t);
  if (t.getProperties().length === 0 && indexes.length === 1) {
    if (!(indexes[0].keyType.flags & F.String)) return problem('OMCG0002', `${text} has no schema: dictionaries are keyed by string.`);
    return wrap(mapWhole(project, indexes[0].type, order), (of) => ({ kind: 'dictionary', of, map: false }), 'value');
  }
  return problem('OMCG0002', `${text} has no schema: TypeScript keeps no run-time type for an interface or object type; declare a class.`);
}

/** The constructor `emitDecoratorMetadata` writes for a fact, when it is a global (classes are left out). */
export function designOf(fact: TypeFact, project: Project): string | undefined {
  switch (fact.kind) {
    case 'global':
      return fact.name;
    case 'literals':
      return 'String';
    case 'array':
      return 'Array';
    case 'set':
      return 'Set';
    case 'dictionary':
      return fact.map ? 'Map' : 'Object';
    case 'nullable':
      return designOf(fact.of, project);
    case 'enum': {
      const values = fact.decl.members.map((m) => project.checker.getConstantValue(m));
      if (values.every((v) => typeof v === 'number')) return 'Number';
      return values.every((v) => typeof v === 'string') ? 'String' : 'Object';
    }
    case 'class':
      return undefined;
  }
}

const TEXT_LIKE = new Set(['String', 'Number', 'Boolean', 'BigInt', 'Date', 'URL']);

/** Whether a fact is text-like: what a resource or prompt parameter may be. */
/** Whether a written type annotation is a union with `null` (through parentheses and type aliases). */
export function writesNull(project: Project, node: TS.TypeNode | undefined, depth = 0): boolean {
  const { ts, checker } = project;
  if (!node || depth > 8) return false;
  if (ts.isParenthesizedTypeNode(node)) return writesNull(project, node.type, depth + 1);
  if (ts.isLiteralTypeNode(node)) return node.literal.kind === ts.SyntaxKind.NullKeyword;
  if (ts.isUnionTypeNode(node)) return node.types.some((t) => writesNull(project, t, depth + 1));
  if (ts.isTypeReferenceNode(node)) {
    const alias = project.target(checker.getSymbolAtLocation(node.typeName));
    const decl = alias?.declarations?.find(ts.isTypeAliasDeclaration);
    return decl !== undefined && writesNull(project, decl.type, depth + 1);
  }
  return false;
}

export function textLike(fact: TypeFact): boolean {
  if (fact.kind === 'nullable') return textLike(fact.of);
  return fact.kind === 'enum' || fact.kind === 'literals' || (fact.kind === 'global' && TEXT_LIKE.has(fact.name));
}
