import type * as TS from 'typescript';
import { VALUE_OPTION_KEYS } from '../decorators/param.decorator';
import type { SourceLiteral } from '../facts/registry';
import type { Origin, Project } from './project';

/** A decorator as written in the source: where its function is declared, and its arguments. */
export interface WrittenDecorator {
  readonly origin?: Origin;
  readonly args: readonly TS.Expression[];
}

/**
 * Reads decorators and their literal arguments from the TypeScript source, without running anything: the
 * generator sees `@Param('city')` as a call expression whose callee resolves to this package's `Param`.
 */
export class DecoratorReading {
  private readonly ts: typeof TS;
  private readonly checker: TS.TypeChecker;

  constructor(private readonly project: Project) {
    this.ts = project.ts;
    this.checker = project.checker;
  }

  /** The decorators on a declaration, `@X` and `@X(...)` alike, with `@ns.X` resolved through `ns`. */
  of(node: TS.Node): readonly WrittenDecorator[] {
    const ts = this.ts;
    return (ts.canHaveDecorators(node) ? (ts.getDecorators(node) ?? []) : []).map((d) => {
      const call = ts.isCallExpression(d.expression) ? d.expression : undefined;
      const callee = call ? call.expression : d.expression;
      const named = ts.isPropertyAccessExpression(callee) ? callee.name : callee;
      return { origin: this.project.originOf(this.checker.getSymbolAtLocation(named)), args: call ? call.arguments : [] };
    });
  }

  /** Whether `d` is this package's decorator `name` (imported under any alias). */
  isOurs(d: WrittenDecorator, name: string): boolean {
    return d.origin?.from === 'onemodelcontext' && d.origin.name === name;
  }

  /** A string literal's text. */
  text(e: TS.Expression | undefined): string | undefined {
    return e && this.ts.isStringLiteralLike(e) ? e.text : undefined;
  }

  /** The initializer of `key` in an object literal argument such as `{ name: 'x' }`. */
  option(e: TS.Expression | undefined, key: string): TS.Expression | undefined {
    const ts = this.ts;
    if (!e || !ts.isObjectLiteralExpression(e)) return undefined;
    const found = e.properties.find((p) => p.name && ts.isIdentifier(p.name) && p.name.text === key);
    return found && ts.isPropertyAssignment(found) ? found.initializer : undefined;
  }

  /**
   * Whether class-validator's rules state the type where the source type has no schema (an interface, a
   * union, `Record<string, unknown>`): `@IsObject()`, `@IsIn([...])`, a type rule with `{ each: true }`.
   * The run time reads them (schema/records/validator-rules.ts), so such a property is no definition problem.
   */
  evidenced(decorators: readonly WrittenDecorator[]): boolean {
    const ts = this.ts;
    const each = (d: WrittenDecorator) =>
      d.args.some((a) => ts.isObjectLiteralExpression(a) && this.option(a, 'each')?.kind === ts.SyntaxKind.TrueKeyword);
    return decorators.some((d) => {
      if (d.origin?.from !== 'class-validator') return false;
      if (d.origin.name === 'IsObject' || d.origin.name === 'IsIn') return true;
      return ['IsString', 'IsNumber', 'IsInt', 'IsBoolean', 'IsDate'].includes(d.origin.name) && each(d);
    });
  }

  /** Whether the decorators give an explicit type hint, which wins over the source type. */
  hinted(decorators: readonly WrittenDecorator[]): boolean {
    const ts = this.ts;
    return decorators.some((d) => {
      if (d.origin?.from === 'class-validator') return ['IsInt', 'IsEnum', 'IsUUID'].includes(d.origin.name);
      if (d.origin?.from === 'class-transformer') return d.origin.name === 'Type';
      if (this.isOurs(d, 'Param')) {
        return d.args.some(
          (a) =>
            !ts.isStringLiteralLike(a) && (!ts.isObjectLiteralExpression(a) || this.keysOf(a).some((k) => k === 'type' || k === '...')),
        );
      }
      if (this.isOurs(d, 'Field') && d.args[0]) {
        const a = d.args[0];
        return (
          !ts.isObjectLiteralExpression(a) ||
          this.keysOf(a).length === 0 ||
          this.keysOf(a).some((k) => k === 'type' || !VALUE_OPTION_KEYS.has(k))
        );
      }
      return false;
    });
  }

  /** The value of a literal the compiler can evaluate (`3`, `'x'`, `Unit.Celsius`, `true`). */
  literalOf(e: TS.Expression | undefined): SourceLiteral | undefined {
    if (!e) return undefined;
    const t = this.checker.getTypeAtLocation(e);
    if (t.isStringLiteral() || t.isNumberLiteral()) return t.value;
    if (t.flags & this.ts.TypeFlags.BooleanLiteral) return this.checker.typeToString(t) === 'true';
    return undefined;
  }

  /** The keys of an object literal; `...` stands for a spread or computed key, which can hide any option. */
  private keysOf(e: TS.ObjectLiteralExpression): readonly string[] {
    const ts = this.ts;
    return e.properties.map((p) => (p.name && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) ? p.name.text : '...'));
  }
}
