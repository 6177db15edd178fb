import type * as TS from 'typescript';
import { VALUE_OPTION_KEYS } from '../decorators/param.decorator';
import { isValidName, toolNameOf } from '../schema/names';
import type { SourceLiteral } from '../facts/registry';
import { Reporter } from './diagnostics';
import { paramDocOf, summaryOf } from './docs';
import type { Origin, Project } from './project';
import { declared, designOf, literalOrder, mapParts, type Mapped, type TypeFact } from './types';

/** What the generated module writes for one parameter, method, property and class. */
export interface ParamOut {
  readonly name: string;
  readonly description?: string;
  readonly type?: TypeFact;
  readonly optional: boolean;
  readonly default?: SourceLiteral;
}

export interface MethodOut {
  readonly name: string;
  readonly description?: string;
  readonly params: readonly ParamOut[];
  readonly returns?: TypeFact;
}

export interface PropertyOut {
  readonly key: string;
  readonly description?: string;
  readonly type?: TypeFact;
  readonly design?: string;
  readonly optional: boolean;
  readonly default?: SourceLiteral;
}

export interface ClassOut {
  readonly decl: TS.ClassDeclaration;
  methods?: MethodOut[];
  properties?: PropertyOut[];
}

/** A declaration the generated module imports, with the name it is exported under. */
export interface Imported {
  readonly decl: TS.ClassDeclaration | TS.EnumDeclaration;
  readonly exportName: string;
}

export interface Collected {
  readonly classes: readonly ClassOut[];
  readonly imports: readonly Imported[];
}

type MemberKind = 'tool' | 'resource' | 'prompt';
const MEMBER_DECORATORS: Readonly<Record<string, MemberKind>> = { Tool: 'tool', Resource: 'resource', Prompt: 'prompt' };
const TEXT_LIKE = new Set(['String', 'Number', 'Boolean', 'BigInt', 'Date', 'URL']);

interface Decorator {
  readonly origin?: Origin;
  readonly args: readonly TS.Expression[];
}

/** Reads the project's decorated classes and the records they reach into the facts to write. */
export function collect(project: Project, reporter: Reporter): Collected {
  const { ts, checker } = project;
  const classes = new Map<TS.ClassDeclaration, ClassOut>();
  const imports = new Map<TS.Node, Imported | undefined>();
  const pending: TS.ClassDeclaration[] = [];
  const edges = new Map<TS.ClassDeclaration, { readonly to: TS.ClassDeclaration; readonly at: TS.Node }[]>();

  const entry = (decl: TS.ClassDeclaration): ClassOut => {
    let out = classes.get(decl);
    if (!out) classes.set(decl, (out = { decl }));
    return out;
  };

  const decoratorsOf = (node: TS.Node): readonly Decorator[] =>
    (ts.canHaveDecorators(node) ? (ts.getDecorators(node) ?? []) : []).map((d) => {
      const call = ts.isCallExpression(d.expression) ? d.expression : undefined;
      const callee = call ? call.expression : d.expression;
      const named = ts.isPropertyAccessExpression(callee) ? callee.name : callee;
      return { origin: project.originOf(checker.getSymbolAtLocation(named)), args: call ? call.arguments : [] };
    });
  const ours = (d: Decorator, name: string) => d.origin?.from === 'onemodelcontext' && d.origin.name === name;

  const text = (e: TS.Expression | undefined) => (e && ts.isStringLiteralLike(e) ? e.text : undefined);
  const option = (e: TS.Expression | undefined, key: string): TS.Expression | undefined => {
    if (!e || !ts.isObjectLiteralExpression(e)) return undefined;
    const found = e.properties.find((p) => p.name && ts.isIdentifier(p.name) && p.name.text === key);
    return found && ts.isPropertyAssignment(found) ? found.initializer : undefined;
  };
  const keysOf = (e: TS.ObjectLiteralExpression) =>
    e.properties.map((p) => (p.name && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) ? p.name.text : '...'));

  /** Whether the decorators give an explicit type hint, which wins over the source type. */
  const hinted = (decorators: readonly Decorator[]) =>
    decorators.some((d) => {
      if (d.origin?.from === 'class-validator') return ['IsInt', 'IsEnum', 'IsUUID'].includes(d.origin.name);
      if (d.origin?.from === 'class-transformer') return d.origin.name === 'Type';
      if (ours(d, 'Param')) {
        return d.args.some((a) => !ts.isStringLiteralLike(a) && (!ts.isObjectLiteralExpression(a) || keysOf(a).some((k) => k === 'type' || k === '...')));
      }
      if (ours(d, 'Field') && d.args[0]) {
        const a = d.args[0];
        return !ts.isObjectLiteralExpression(a) || keysOf(a).length === 0 || keysOf(a).some((k) => k === 'type' || !VALUE_OPTION_KEYS.has(k));
      }
      return false;
    });

  const literalOf = (e: TS.Expression | undefined): SourceLiteral | undefined => {
    if (!e) return undefined;
    const t = checker.getTypeAtLocation(e);
    if (t.isStringLiteral() || t.isNumberLiteral()) return t.value;
    if (t.flags & ts.TypeFlags.BooleanLiteral) return checker.typeToString(t) === 'true';
    return undefined;
  };

  const exported = (decl: TS.ClassDeclaration | TS.EnumDeclaration): Imported | undefined => {
    if (imports.has(decl)) return imports.get(decl);
    const file = checker.getSymbolAtLocation(decl.getSourceFile());
    const own = decl.name && project.target(checker.getSymbolAtLocation(decl.name));
    const found = file && own ? checker.getExportsOfModule(file).find((e) => project.target(e) === own) : undefined;
    const result = found && { decl, exportName: found.name };
    imports.set(decl, result);
    const what = ts.isEnumDeclaration(decl) ? 'enum' : 'class';
    if (!result) {
      reporter.add(
        decl.name ?? decl,
        'OMCG0001',
        `the ${what} ${decl.name?.text ?? '(anonymous)'} is not exported, so the generated module cannot import it: export it.`,
      );
    } else if (ts.isEnumDeclaration(decl) && ts.getCombinedModifierFlags(decl) & ts.ModifierFlags.Const) {
      reporter.add(decl.name, 'OMCG0002', `the const enum ${decl.name.text} has no run-time object: declare it without const.`);
    }
    return result;
  };

  /** Imports what a fact refers to and queues the record classes it reaches. */
  const use = (fact: TypeFact, from: TS.ClassDeclaration | undefined, at: TS.Node): void => {
    if (fact.kind === 'class' || fact.kind === 'enum') exported(fact.decl);
    if (fact.kind === 'class') {
      if (classes.get(fact.decl)?.properties === undefined) pending.push(fact.decl);
      if (from) edges.set(from, [...(edges.get(from) ?? []), { to: fact.decl, at }]);
    }
    if ('of' in fact) use(fact.of, from, at);
  };

  /** The fact of a declared type; reports why there is none unless a hint covers it. */
  const typeFact = (type: TS.Type, node: TS.TypeNode | undefined, at: TS.Node, where: string, covered: boolean): { fact?: TypeFact; optional: boolean } => {
    const split = declared(project, type);
    const mapped: Mapped = mapParts(project, split.parts, literalOrder(project, node));
    if ('problem' in mapped && !covered) {
      reporter.add(at, mapped.problem.code, `${where}: ${mapped.problem.message} Give a type hint (@Param({ type }) or @Field(type)) or declare a supported type.`);
    }
    return { fact: 'fact' in mapped ? mapped.fact : undefined, optional: split.optional };
  };

  const contextOf = (param: TS.ParameterDeclaration): 'RequestContext' | 'AbortSignal' | undefined => {
    const origin = project.originOf(checker.getTypeAtLocation(param).getSymbol());
    if (origin?.from === 'onemodelcontext' && origin.name === 'RequestContext') return 'RequestContext';
    return origin?.from === 'library' && origin.name === 'AbortSignal' ? 'AbortSignal' : undefined;
  };

  const methodOf = (method: TS.MethodDeclaration, key: string, kind: MemberKind, where: string): MethodOut => {
    if (method.typeParameters) reporter.add(method.name, 'OMCG0004', `${where} is generic: its parameter types are not known until it is called; remove the type parameters.`);
    const params: ParamOut[] = [];
    const names = new Set<string>();
    const contexts = new Set<string>();
    for (const param of method.parameters) {
      if (ts.isIdentifier(param.name) && param.name.text === 'this') continue;
      const decorators = decoratorsOf(param);
      const isHinted = hinted(decorators);
      const paramDecorator = decorators.find((d) => ours(d, 'Param'));
      const given = text(paramDecorator?.args[0]) ?? text(option(paramDecorator?.args[0], 'name'));
      const written = ts.isIdentifier(param.name) && !param.dotDotDotToken ? param.name.text : undefined;
      const name = given ?? written;
      const context = isHinted ? undefined : contextOf(param);
      if (context) {
        if (contexts.has(context)) reporter.add(param.name, 'OMCG0009', `${where} has more than one ${context} parameter: keep one.`);
        contexts.add(context);
        params.push({ name: written ?? '', optional: false });
        continue;
      }
      if (name === undefined) {
        reporter.add(param.name, 'OMCG0008', `a parameter of ${where} has no name that can be read (destructured or rest): name it with @Param('name').`);
        continue;
      }
      if (names.has(name)) reporter.add(param.name, 'OMCG0007', `${where} has two parameters named '${name}': rename one with @Param('name').`);
      names.add(name);
      const { fact, optional } = typeFact(checker.getTypeAtLocation(param), param.type, param.name, `${where}, parameter '${name}'`, isHinted);
      if (fact) use(fact, undefined, param.name);
      if (fact && kind !== 'tool' && !isHinted && !textLike(fact)) {
        reporter.add(param.name, 'OMCG0002', `the ${kind} parameter '${name}' of ${where} is not text-like: use a string, number, boolean, Date or enum.`);
      }
      params.push({
        name,
        description: paramDocOf(param, ts),
        type: fact,
        optional: optional || !!param.questionToken || !!param.initializer,
        default: literalOf(param.initializer),
      });
    }
    return { name: key, description: summaryOf(method, ts), params, returns: kind === 'tool' ? returnsOf(method, where) : undefined };
  };

  const returnsOf = (method: TS.MethodDeclaration, where: string): TypeFact | undefined => {
    const signature = checker.getSignatureFromDeclaration(method);
    if (!signature) return undefined;
    let type = checker.getReturnTypeOfSignature(signature);
    const origin = project.originOf(type.getSymbol());
    const awaited = origin?.from === 'library' && origin.name === 'Promise';
    if (awaited) type = checker.getTypeArguments(type as TS.TypeReference)[0] ?? type;
    if (!awaited && (type.getCallSignatures().length > 0 || type.flags & ts.TypeFlags.ESSymbolLike)) {
      reporter.add(method.type ?? method.name, 'OMCG0003', `${where} returns ${checker.typeToString(type)}, which cannot be sent: return a JSON value, a record, text or content blocks.`);
      return undefined;
    }
    if (type.flags & (ts.TypeFlags.Void | ts.TypeFlags.Undefined | ts.TypeFlags.Any | ts.TypeFlags.Unknown | ts.TypeFlags.Never)) return undefined;
    const split = declared(project, type);
    const mapped = mapParts(project, split.parts, literalOrder(project, method.type));
    if (!('fact' in mapped)) return undefined;
    use(mapped.fact, undefined, method.name);
    return mapped.fact;
  };

  const containing = (decl: TS.ClassDeclaration, members: readonly { member: TS.ClassElement; kind: MemberKind; args: readonly TS.Expression[] }[]) => {
    const className = decl.name?.text ?? '(anonymous)';
    if (decl.typeParameters) reporter.add(decl.name ?? decl, 'OMCG0010', `${className} is generic: its tools cannot be listed until it is instantiated; remove the type parameters.`);
    exported(decl);
    const out = entry(decl);
    out.methods = [];
    const toolNames = new Map<string, string>();
    for (const { member, kind, args } of members) {
      const key = member.name && (ts.isIdentifier(member.name) || ts.isStringLiteral(member.name)) ? member.name.text : undefined;
      const where = `${className}.${key ?? '(computed)'}`;
      const isStatic = ts.getCombinedModifierFlags(member as TS.Declaration) & ts.ModifierFlags.Static;
      if (!ts.isMethodDeclaration(member) || isStatic) {
        const shape = isStatic ? 'a static member' : ts.isPropertyDeclaration(member) ? 'a field' : 'a getter or setter';
        reporter.add(member.name ?? member, 'OMCG0001', `@${kind[0].toUpperCase()}${kind.slice(1)} is on ${shape} (${where}); only instance methods can be ${kind}s.`);
        continue;
      }
      if (key === undefined) continue;
      if (kind === 'tool') {
        const name = text(args[0]) ?? text(option(args[0], 'name')) ?? (args[0] && !ts.isObjectLiteralExpression(args[0]) ? undefined : toolNameOf(key));
        if (name !== undefined && !isValidName(name)) {
          reporter.add(member.name, 'OMCG0008', `the tool name '${name}' of ${where} is not valid: use 1 to 128 ASCII letters, digits, '_', '-' or '.'.`);
        }
        if (name !== undefined && toolNames.has(name)) reporter.add(member.name, 'OMCG0007', `${where} and ${toolNames.get(name)} are both named '${name}'.`);
        if (name !== undefined) toolNames.set(name, where);
        const ui = option(args[0], 'uiResource');
        if (text(ui) !== undefined && !text(ui)!.startsWith('ui://')) reporter.add(ui!, 'OMCG0012', `uiResource '${text(ui)}' of ${where} is not a ui:// URI.`);
        const visibility = option(args[0], 'uiVisibility');
        if (visibility && ts.isArrayLiteralExpression(visibility)) {
          const wrong = visibility.elements.map((e) => text(e)).filter((v) => v !== undefined && v !== 'model' && v !== 'app');
          if (wrong.length > 0) reporter.add(visibility, 'OMCG0012', `uiVisibility of ${where} holds ${wrong.map((w) => `'${w}'`).join(', ')}: use 'model', 'app' or both.`);
        }
      }
      out.methods.push(methodOf(member, key, kind, where));
    }
  };

  const hasProperties = (decl: TS.ClassDeclaration | undefined): boolean =>
    !!decl && (!!classes.get(decl)?.properties?.length || hasProperties(baseOf(decl)));
  const baseOf = (decl: TS.ClassDeclaration): TS.ClassDeclaration | undefined => {
    const base = decl.heritageClauses?.find((h) => h.token === ts.SyntaxKind.ExtendsKeyword)?.types[0];
    const found = base && checker.getTypeAtLocation(base.expression).getSymbol()?.declarations?.find(ts.isClassDeclaration);
    return found && !found.getSourceFile().isDeclarationFile ? found : undefined;
  };

  const record = (decl: TS.ClassDeclaration) => {
    const out = entry(decl);
    if (out.properties) return;
    out.properties = [];
    exported(decl);
    const ctor = decl.members.find(ts.isConstructorDeclaration);
    const declaredProperties = [
      ...(ctor?.parameters.filter((p) => ts.isParameterPropertyDeclaration(p, ctor)) ?? []),
      ...decl.members.filter(ts.isPropertyDeclaration),
    ].sort((a, b) => a.pos - b.pos);
    for (const member of declaredProperties) {
      const flags = ts.getCombinedModifierFlags(member);
      const decorators = decoratorsOf(member);
      if (flags & ts.ModifierFlags.Static || !(ts.isIdentifier(member.name) || ts.isStringLiteral(member.name))) continue;
      if (flags & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected) && decorators.length === 0) continue;
      const excluded = decorators.some((d) => d.origin?.from === 'class-transformer' && d.origin.name === 'Exclude');
      const isHinted = hinted(decorators);
      const where = `${decl.name?.text ?? '(anonymous)'}.${member.name.text}`;
      const { fact, optional } = typeFact(checker.getTypeAtLocation(member), member.type, member.name, where, isHinted || excluded);
      if (fact) use(fact, isHinted || excluded ? undefined : decl, member.name);
      out.properties.push({
        key: member.name.text,
        description: summaryOf(member, ts) ?? (ts.isParameter(member) ? paramDocOf(member, ts) : undefined),
        type: fact,
        design: decorators.length === 0 && fact ? designOf(fact, project) : undefined,
        optional: optional || !!member.questionToken,
        default: literalOf(member.initializer),
      });
    }
    const base = baseOf(decl);
    if (base) {
      record(base);
      edges.set(decl, [...(edges.get(decl) ?? []), { to: base, at: decl.name ?? decl }]);
    }
    if (!hasProperties(decl)) {
      reporter.add(decl.name ?? decl, 'OMCG0005', `${decl.name?.text ?? 'the class'} has no properties, so it has no schema: declare its properties.`);
    }
  };

  const visit = (node: TS.Node): void => {
    if (ts.isClassDeclaration(node) || ts.isClassExpression(node)) {
      const members = node.members.flatMap((member) =>
        decoratorsOf(member).flatMap((d) => {
          const kind = d.origin?.from === 'onemodelcontext' ? MEMBER_DECORATORS[d.origin.name] : undefined;
          return kind ? [{ member, kind, args: d.args }] : [];
        }),
      );
      if (members.length > 0) {
        if (ts.isClassDeclaration(node)) containing(node, members);
        else reporter.add(node, 'OMCG0001', 'a class expression cannot be imported by the generated module: declare an exported class.');
      }
    }
    ts.forEachChild(node, visit);
  };
  for (const source of project.sources) visit(source);
  for (let next = pending.shift(); next; next = pending.shift()) record(next);
  reportCycles(edges, reporter);

  const ordered = [...classes.values()].sort((a, b) => compareDecl(a.decl, b.decl));
  const used = [...imports.values()].filter((i): i is Imported => i !== undefined).sort((a, b) => compareDecl(a.decl, b.decl));
  return { classes: ordered, imports: used };
}

function textLike(fact: TypeFact): boolean {
  if (fact.kind === 'nullable') return textLike(fact.of);
  return fact.kind === 'enum' || fact.kind === 'literals' || (fact.kind === 'global' && TEXT_LIKE.has(fact.name));
}

function compareDecl(a: TS.Node, b: TS.Node): number {
  return a.getSourceFile().fileName.localeCompare(b.getSourceFile().fileName) || a.pos - b.pos;
}

/** OMCG0006: a record that reaches itself through properties (or its base class) has no finite inline schema. */
function reportCycles(edges: ReadonlyMap<TS.ClassDeclaration, readonly { readonly to: TS.ClassDeclaration; readonly at: TS.Node }[]>, reporter: Reporter): void {
  const done = new Set<TS.ClassDeclaration>();
  const walk = (decl: TS.ClassDeclaration, path: readonly TS.ClassDeclaration[]): void => {
    if (done.has(decl)) return;
    for (const edge of edges.get(decl) ?? []) {
      const at = path.indexOf(edge.to);
      if (edge.to === decl || at >= 0) {
        const cycle = [...path.slice(Math.max(at, 0)), decl, edge.to].map((d) => d.name?.text ?? '(anonymous)');
        if (edge.to === decl) cycle.splice(0, cycle.length - 2);
        reporter.add(edge.at, 'OMCG0006', `${edge.to.name?.text} refers to itself (${cycle.join(' -> ')}): use Json or an id instead.`);
      } else {
        walk(edge.to, [...path, decl]);
      }
    }
    done.add(decl);
  };
  for (const decl of edges.keys()) walk(decl, []);
}
