import type * as TS from 'typescript';
import { DecoratorReading } from './decorator-reading';
import type { Reporter } from './diagnostics';
import { paramDocOf, summaryOf } from './docs';
import type { ClassOut, Collected, Imported, MethodOut, ParamOut, PropertyOut } from './collected';
import { reportCycles, type Edge } from './cycles';
import { ModuleImports } from './imports';
import type { Project } from './project';
import { checkToolOptions } from './tool-options';
import { declared, designOf, literalOrder, mapParts, textLike, writesNull, type Mapped, type TypeFact } from './types';

type MemberKind = 'tool' | 'resource' | 'prompt' | 'skill';
const MEMBER_DECORATORS: Readonly<Record<string, MemberKind>> = { Tool: 'tool', Resource: 'resource', Prompt: 'prompt', Skill: 'skill' };

/** One `@Tool`, `@Resource`, `@Prompt` or `@Skill` found on a class element. */
interface DecoratedMember {
  readonly member: TS.ClassElement;
  readonly kind: MemberKind;
  readonly args: readonly TS.Expression[];
}

/** Reads the project's decorated classes and the records they reach into the facts to write. */
export function collect(project: Project, reporter: Reporter): Collected {
  return new Collector(project, reporter).run();
}

/**
 * One run over a project, in passes: find the classes with decorated members and read their method facts;
 * then read the record classes those methods reach (queued while reading types, base classes too); then
 * report record cycles. The maps below are the run's only state.
 */
class Collector {
  private readonly ts: typeof TS;
  private readonly checker: TS.TypeChecker;
  private readonly decorators: DecoratorReading;
  private readonly classes = new Map<TS.ClassDeclaration, ClassOut>();
  private readonly imports: ModuleImports;
  /** The class being read: a diagnostic keeps it out of the module. */
  private current?: TS.ClassDeclaration;
  /** Record classes reached but not read yet. */
  private readonly pending: TS.ClassDeclaration[] = [];
  private readonly edges = new Map<TS.ClassDeclaration, Edge[]>();

  constructor(
    private readonly project: Project,
    private readonly reporter: Reporter,
  ) {
    this.ts = project.ts;
    this.checker = project.checker;
    this.decorators = new DecoratorReading(project);
    this.imports = new ModuleImports(project, reporter);
  }

  run(): Collected {
    for (const source of this.project.sources) this.visit(source);
    for (let next = this.pending.shift(); next; next = this.pending.shift()) this.readRecord(next);
    reportCycles(this.edges, this.reporter);
    const all = [...this.classes.values()];
    const ordered = all.filter((c) => !this.reporter.hasFailed(c.decl)).sort((a, b) => compareDecl(a.decl, b.decl));
    // Only what the written classes refer to is imported: a left-out class's references would be unused imports.
    const referenced = new Set<TS.Node>();
    const note = (fact: TypeFact | undefined): void => {
      if (!fact) return;
      if (fact.kind === 'class' || fact.kind === 'enum') referenced.add(fact.decl);
      if ('of' in fact) note(fact.of);
    };
    for (const c of ordered) {
      referenced.add(c.decl);
      for (const m of c.methods ?? []) [...m.params.map((p) => p.type), m.returns].forEach(note);
      for (const p of c.properties ?? []) note(p.type);
    }
    const used = [...this.imports.entries()]
      .filter((i): i is Imported => i !== undefined && referenced.has(i.decl))
      .sort((a, b) => compareDecl(a.decl, b.decl));
    const privates = new Set(
      [...referenced].filter((d): d is TS.ClassDeclaration => this.ts.isClassDeclaration(d) && this.imports.isPrivate(d)),
    );
    return { classes: ordered, imports: used, privates, leftOut: all.length - ordered.length };
  }

  /** Reports a diagnostic that keeps the class being read out of the module. */
  private report(node: TS.Node, code: Parameters<Reporter['add']>[1], message: string): void {
    this.reporter.add(node, code, message, this.current);
  }

  /** Reads `decl` as the class being read, for `report`. */
  private within<T>(decl: TS.ClassDeclaration, read: () => T): T {
    const outer = this.current;
    this.current = decl;
    try {
      return read();
    } finally {
      this.current = outer;
    }
  }

  /**
   * The key a member is declared under: its name, or the literal value of a computed key the checker knows
   * (`[Keys.A]`, a const enum member or a `const` object's string); reported and `undefined` otherwise.
   */
  private keyOf(name: TS.PropertyName | undefined, where: string): string | undefined {
    const ts = this.ts;
    if (!name) return undefined;
    if (ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name)) return name.text;
    if (ts.isComputedPropertyName(name)) {
      const t = this.checker.getTypeAtLocation(name.expression);
      if (t.isStringLiteral()) return t.value;
      if (t.isNumberLiteral()) return String(t.value);
      this.report(
        name,
        'OMCG0008',
        `the computed key ${name.getText()} of ${where} is not a string the compiler knows: use a string literal, a const enum member or a member of a \`const\` object.`,
      );
      return undefined;
    }
    this.report(
      name,
      'OMCG0008',
      `the private name ${name.getText()} of ${where} cannot be read from outside the class: use a plain name.`,
    );
    return undefined;
  }

  // Pass 1: classes with decorated members, and their method facts.

  private visit(node: TS.Node): void {
    const ts = this.ts;
    if (ts.isClassDeclaration(node) || ts.isClassExpression(node)) {
      const members = this.decoratedMembersOf(node);
      if (members.length > 0) {
        if (ts.isClassDeclaration(node)) this.readClass(node, members);
        else this.reporter.add(node, 'OMCG0001', 'a class expression cannot be reached by the generated module: declare a class.');
      }
    }
    ts.forEachChild(node, (child) => this.visit(child));
  }

  private decoratedMembersOf(node: TS.ClassLikeDeclaration): readonly DecoratedMember[] {
    return node.members.flatMap((member) =>
      this.decorators.of(member).flatMap((d) => {
        const kind = d.origin?.from === 'onemodelcontext' ? MEMBER_DECORATORS[d.origin.name] : undefined;
        return kind ? [{ member, kind, args: d.args }] : [];
      }),
    );
  }

  private readClass(decl: TS.ClassDeclaration, members: readonly DecoratedMember[]): void {
    this.within(decl, () => this.readClassNow(decl, members));
  }

  private readClassNow(decl: TS.ClassDeclaration, members: readonly DecoratedMember[]): void {
    const className = decl.name?.text ?? '(anonymous)';
    if (decl.typeParameters) {
      this.report(
        decl.name ?? decl,
        'OMCG0010',
        `${className} is generic: its tools cannot be listed until it is instantiated; remove the type parameters.`,
      );
    }
    this.imports.exported(decl);
    const out = this.entry(decl);
    out.methods = [];
    const toolNames = new Map<string, string>();
    for (const { member, kind, args } of members) {
      const key = this.keyOf(member.name, className);
      const where = `${className}.${key ?? member.name?.getText() ?? '(computed)'}`;
      if (!this.isInstanceMethod(member, kind, where)) continue;
      if (key === undefined) continue;
      if (kind === 'tool')
        checkToolOptions(this.ts, this.literals(), member, args, key, where, toolNames, (node, code, message) =>
          this.report(node, code, message),
        );
      out.methods.push(this.methodFacts(member, key, kind, where));
    }
  }

  /** OMCG0001 for a static member, a field or an accessor. */
  private isInstanceMethod(member: TS.ClassElement, kind: MemberKind, where: string): member is TS.MethodDeclaration {
    const ts = this.ts;
    const isStatic = ts.getCombinedModifierFlags(member as TS.Declaration) & ts.ModifierFlags.Static;
    if (ts.isMethodDeclaration(member) && !isStatic) return true;
    const shape = isStatic ? 'a static member' : ts.isPropertyDeclaration(member) ? 'a field' : 'a getter or setter';
    this.report(
      member.name ?? member,
      'OMCG0001',
      `@${kind[0].toUpperCase()}${kind.slice(1)} is on ${shape} (${where}); only instance methods can be ${kind}s.`,
    );
    return false;
  }

  /** The tool name (valid, unique in the class) and the MCP Apps options, as far as literals tell. */
  private methodFacts(method: TS.MethodDeclaration, key: string, kind: MemberKind, where: string): MethodOut {
    const ts = this.ts;
    if (method.typeParameters) {
      this.report(
        method.name,
        'OMCG0004',
        `${where} is generic: its parameter types are not known until it is called; remove the type parameters.`,
      );
    }
    const params: ParamOut[] = [];
    const seen = { names: new Set<string>(), contexts: new Set<string>() };
    for (const param of method.parameters) {
      if (ts.isIdentifier(param.name) && param.name.text === 'this') continue;
      const out = this.paramFacts(param, kind, where, seen);
      if (out) params.push(out);
    }
    return { name: key, description: summaryOf(method, ts), params, returns: kind === 'tool' ? this.returnsOf(method, where) : undefined };
  }

  /** One parameter; a context parameter keeps its place with no type; `undefined` for one without a name. */
  private paramFacts(
    param: TS.ParameterDeclaration,
    kind: MemberKind,
    where: string,
    seen: { readonly names: Set<string>; readonly contexts: Set<string> },
  ): ParamOut | undefined {
    const ts = this.ts;
    const { text, option } = this.literals();
    const decorators = this.decorators.of(param);
    const isHinted = this.decorators.hinted(decorators);
    const paramDecorator = decorators.find((d) => this.decorators.isOurs(d, 'Param'));
    const given = text(paramDecorator?.args[0]) ?? text(option(paramDecorator?.args[0], 'name'));
    const written = ts.isIdentifier(param.name) && !param.dotDotDotToken ? param.name.text : undefined;
    const name = given ?? written;
    const context = isHinted ? undefined : this.contextOf(param);
    if (context) {
      if (seen.contexts.has(context)) this.report(param.name, 'OMCG0009', `${where} has more than one ${context} parameter: keep one.`);
      seen.contexts.add(context);
      return { name: written ?? '', optional: false, context };
    }
    if (name === undefined) {
      this.report(
        param.name,
        'OMCG0008',
        `a parameter of ${where} has no name that can be read (destructured or rest): name it with @Param('name').`,
      );
      return undefined;
    }
    if (seen.names.has(name))
      this.report(param.name, 'OMCG0007', `${where} has two parameters named '${name}': rename one with @Param('name').`);
    seen.names.add(name);
    const { fact, optional } = this.typeFact(
      this.checker.getTypeAtLocation(param),
      param.type,
      param.name,
      `${where}, parameter '${name}'`,
      isHinted,
    );
    if (fact) this.use(fact, undefined, param.name);
    if (fact && kind !== 'tool' && !isHinted && !textLike(fact)) {
      this.report(
        param.name,
        'OMCG0002',
        `the ${kind} parameter '${name}' of ${where} is not text-like: use a string, number, boolean, Date or enum.`,
      );
    }
    return {
      name,
      description: paramDocOf(param, ts),
      type: fact,
      optional: optional || !!param.questionToken || !!param.initializer,
      default: this.decorators.literalOf(param.initializer),
    };
  }

  private contextOf(param: TS.ParameterDeclaration): 'RequestContext' | 'AbortSignal' | undefined {
    const origin = this.project.originOf(this.checker.getNonNullableType(this.checker.getTypeAtLocation(param)).getSymbol());
    if (origin?.from === 'onemodelcontext' && origin.name === 'RequestContext') return 'RequestContext';
    return origin?.from === 'library' && origin.name === 'AbortSignal' ? 'AbortSignal' : undefined;
  }

  private returnsOf(method: TS.MethodDeclaration, where: string): TypeFact | undefined {
    const { ts, checker } = this;
    const signature = checker.getSignatureFromDeclaration(method);
    if (!signature) return undefined;
    let type = checker.getReturnTypeOfSignature(signature);
    const origin = this.project.originOf(type.getSymbol());
    const awaited = origin?.from === 'library' && origin.name === 'Promise';
    if (awaited) type = checker.getTypeArguments(type as TS.TypeReference)[0] ?? type;
    if (!awaited && (type.getCallSignatures().length > 0 || type.flags & ts.TypeFlags.ESSymbolLike)) {
      this.report(
        method.type ?? method.name,
        'OMCG0003',
        `${where} returns ${checker.typeToString(type)}, which cannot be sent: return a JSON value, a record, text or content blocks.`,
      );
      return undefined;
    }
    if (type.flags & (ts.TypeFlags.Void | ts.TypeFlags.Undefined | ts.TypeFlags.Any | ts.TypeFlags.Unknown | ts.TypeFlags.Never))
      return undefined;
    const split = declared(this.project, type);
    const mapped = mapParts(this.project, split.parts, literalOrder(this.project, method.type));
    if (!('fact' in mapped)) return undefined;
    this.use(mapped.fact, undefined, method.name);
    return mapped.fact;
  }

  // Pass 2: the record classes the methods reach, and their bases.

  private readRecord(decl: TS.ClassDeclaration): void {
    this.within(decl, () => this.readRecordNow(decl));
  }

  private readRecordNow(decl: TS.ClassDeclaration): void {
    const ts = this.ts;
    const out = this.entry(decl);
    if (out.properties) return;
    out.properties = [];
    this.imports.exported(decl);
    const ctor = decl.members.find(ts.isConstructorDeclaration);
    const declaredProperties = [
      ...(ctor?.parameters.filter((p) => ts.isParameterPropertyDeclaration(p, ctor)) ?? []),
      ...decl.members.filter(ts.isPropertyDeclaration),
    ].sort((a, b) => a.pos - b.pos);
    for (const member of declaredProperties) {
      const property = this.propertyFacts(decl, member);
      if (property) out.properties.push(property);
    }
    const base = this.baseOf(decl);
    if (base) {
      this.readRecord(base);
      this.edges.set(decl, [...(this.edges.get(decl) ?? []), { to: base, at: decl.name ?? decl }]);
    }
    if (!this.hasProperties(decl)) {
      this.report(
        decl.name ?? decl,
        'OMCG0005',
        `${decl.name?.text ?? 'the class'} has no properties, so it has no schema: declare its properties.`,
      );
    }
  }

  /** One instance property; `undefined` for statics, computed names, and undecorated private or protected ones. */
  private propertyFacts(
    decl: TS.ClassDeclaration,
    member: TS.PropertyDeclaration | TS.ParameterPropertyDeclaration,
  ): PropertyOut | undefined {
    const ts = this.ts;
    const flags = ts.getCombinedModifierFlags(member);
    const decorators = this.decorators.of(member);
    if (flags & ts.ModifierFlags.Static || ts.isPrivateIdentifier(member.name)) return undefined;
    if (flags & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected) && decorators.length === 0) return undefined;
    const key = this.keyOf(member.name, decl.name?.text ?? '(anonymous)');
    if (key === undefined) return undefined;
    const excluded = decorators.some((d) => d.origin?.from === 'class-transformer' && d.origin.name === 'Exclude');
    const isHinted = this.decorators.hinted(decorators);
    const evidenced = this.decorators.evidenced(decorators);
    const where = `${decl.name?.text ?? '(anonymous)'}.${key}`;
    const { fact, optional } = this.typeFact(
      this.checker.getTypeAtLocation(member),
      member.type,
      member.name,
      where,
      isHinted || excluded || evidenced,
    );
    if (fact) this.use(fact, isHinted || excluded ? undefined : decl, member.name);
    return {
      key,
      description: summaryOf(member, ts) ?? (ts.isParameter(member) ? paramDocOf(member, ts) : undefined),
      type: fact,
      design: decorators.length === 0 && fact ? designOf(fact, this.project) : undefined,
      optional: optional || !!member.questionToken,
      default: this.decorators.literalOf(member.initializer),
    };
  }

  private hasProperties(decl: TS.ClassDeclaration | undefined): boolean {
    return !!decl && (!!this.classes.get(decl)?.properties?.length || this.hasProperties(this.baseOf(decl)));
  }

  /** The base class declared in the project's own source, if any. */
  private baseOf(decl: TS.ClassDeclaration): TS.ClassDeclaration | undefined {
    const ts = this.ts;
    const base = decl.heritageClauses?.find((h) => h.token === ts.SyntaxKind.ExtendsKeyword)?.types[0];
    const found = base && this.checker.getTypeAtLocation(base.expression).getSymbol()?.declarations?.find(ts.isClassDeclaration);
    return found && !found.getSourceFile().isDeclarationFile ? found : undefined;
  }

  // Shared by both passes: type facts, the imports they need, and the records they reach.

  /** The fact of a declared type; reports why there is none unless a hint covers it. */
  private typeFact(
    type: TS.Type,
    node: TS.TypeNode | undefined,
    at: TS.Node,
    where: string,
    covered: boolean,
  ): { fact?: TypeFact; optional: boolean } {
    const split = declared(this.project, type);
    const mapped: Mapped = mapParts(this.project, split.parts, literalOrder(this.project, node));
    if ('problem' in mapped && !covered) {
      this.report(
        at,
        mapped.problem.code,
        `${where}: ${mapped.problem.message} Give a type hint (@Param({ type }) or @Field(type)) or declare a supported type.`,
      );
    }
    const fact = 'fact' in mapped ? this.reachable(mapped.fact, at) : undefined;
    // Without strictNullChecks the checker drops `| null`; the written type still says it.
    const nullable = fact && fact.kind !== 'nullable' && writesNull(this.project, node) ? ({ kind: 'nullable', of: fact } as const) : fact;
    return { fact: nullable, optional: split.optional };
  }

  /**
   * The fact with every enum the module cannot import (not exported, or a const enum) written as the
   * string literals of its values; such an enum with a number value is reported.
   */
  private reachable(fact: TypeFact, at: TS.Node): TypeFact | undefined {
    const ts = this.ts;
    if (fact.kind === 'enum') {
      const isConst = !!(ts.getCombinedModifierFlags(fact.decl) & ts.ModifierFlags.Const);
      if (this.imports.exported(fact.decl) && !isConst) return fact;
      const values = fact.decl.members.map((m) => this.checker.getConstantValue(m));
      if (values.every((v) => typeof v === 'string')) return { kind: 'literals', values: values as string[] };
      const name = fact.decl.name.text;
      this.report(
        at,
        isConst ? 'OMCG0002' : 'OMCG0001',
        isConst
          ? `the const enum ${name} has number values and no run-time object: declare it without const.`
          : `the enum ${name} is not exported and has number values, which its members' names list: export it.`,
      );
      return undefined;
    }
    if (!('of' in fact)) return fact;
    const of = this.reachable(fact.of, at);
    return of && ({ ...fact, of } as TypeFact);
  }

  /** Imports what a fact refers to and queues the record classes it reaches. */
  private use(fact: TypeFact, from: TS.ClassDeclaration | undefined, at: TS.Node): void {
    if (fact.kind === 'class' || fact.kind === 'enum') this.imports.exported(fact.decl);
    if (fact.kind === 'class') {
      if (this.classes.get(fact.decl)?.properties === undefined) this.pending.push(fact.decl);
      if (from) this.edges.set(from, [...(this.edges.get(from) ?? []), { to: fact.decl, at }]);
    }
    if ('of' in fact) this.use(fact.of, from, at);
  }

  private entry(decl: TS.ClassDeclaration): ClassOut {
    let out = this.classes.get(decl);
    if (!out) this.classes.set(decl, (out = { decl }));
    return out;
  }

  private literals(): Pick<DecoratorReading, 'text' | 'option'> {
    return { text: (e) => this.decorators.text(e), option: (e, key) => this.decorators.option(e, key) };
  }
}

function compareDecl(a: TS.Node, b: TS.Node): number {
  return a.getSourceFile().fileName.localeCompare(b.getSourceFile().fileName) || a.pos - b.pos;
}
