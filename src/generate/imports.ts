import type * as TS from 'typescript';
import type { Imported } from './collected';
import type { Reporter } from './diagnostics';
import type { Project } from './project';

/**
 * The declarations a facts module imports, and under which export: found once per declaration. A class that is not
 * exported is registered by its name instead (`SourceClass('Name')`), which must then be the only such name.
 */
export class ModuleImports {
  /** Declarations the generated module imports; `undefined` when one is not exported. */
  private readonly found = new Map<TS.Node, Imported | undefined>();
  /** Non-exported classes of the project's sources by name, to refuse two that only a name would tell apart. */
  private privateNames?: Map<string, TS.ClassDeclaration[]>;
  private readonly ts: typeof TS;
  private readonly checker: TS.TypeChecker;

  constructor(
    private readonly project: Project,
    private readonly reporter: Reporter,
  ) {
    this.ts = project.ts;
    this.checker = project.checker;
  }

  /** Every declaration looked up, with its import (`undefined`: not exported). */
  entries(): IterableIterator<Imported | undefined> {
    return this.found.values();
  }

  /** Whether the module cannot import a declaration: not exported, or never looked up. */
  isPrivate(decl: TS.Node): boolean {
    return this.found.get(decl) === undefined;
  }

  /**
   * The export a declaration is imported under; `undefined` when it is not exported. A class that is not
   * exported is registered by its name instead, which must then be the only such name in the project.
   */
  exported(decl: TS.ClassDeclaration | TS.EnumDeclaration): Imported | undefined {
    const ts = this.ts;
    if (this.found.has(decl)) return this.found.get(decl);
    const found = this.exportOf(decl);
    const result = found === undefined ? undefined : { decl, exportName: found };
    this.found.set(decl, result);
    if (!result && ts.isClassDeclaration(decl)) {
      const name = decl.name?.text;
      const others = name === undefined ? [] : this.privateClassesNamed(name).filter((d) => d !== decl && this.exportOf(d) === undefined);
      if (name === undefined || others.length > 0) {
        const where = others[0] && `${others[0].getSourceFile().fileName.split('/').slice(-2).join('/')}`;
        this.reporter.add(
          decl.name ?? decl,
          'OMCG0007',
          name === undefined
            ? 'an anonymous default-exported class cannot be registered: name it.'
            : `the class ${name} is not exported and another class that is not exported has its name (in ${where}); the facts module finds such classes by name: rename or export one.`,
          decl,
        );
      }
    }
    return result;
  }

  /** The name a declaration is exported under by its module, if any. */
  private exportOf(decl: TS.ClassDeclaration | TS.EnumDeclaration): string | undefined {
    const checker = this.checker;
    const file = checker.getSymbolAtLocation(decl.getSourceFile());
    const own = decl.name && this.project.target(checker.getSymbolAtLocation(decl.name));
    return file && own ? checker.getExportsOfModule(file).find((e) => this.project.target(e) === own)?.name : undefined;
  }

  /** The project's non-exported class declarations named `name` (any may be one the module must reach). */
  private privateClassesNamed(name: string): readonly TS.ClassDeclaration[] {
    if (!this.privateNames) {
      const ts = this.ts;
      const byName = new Map<string, TS.ClassDeclaration[]>();
      const walk = (node: TS.Node): void => {
        if (ts.isClassDeclaration(node) && node.name && !(ts.getCombinedModifierFlags(node) & ts.ModifierFlags.Export)) {
          byName.set(node.name.text, [...(byName.get(node.name.text) ?? []), node]);
        }
        ts.forEachChild(node, walk);
      };
      this.project.sources.forEach(walk);
      this.privateNames = byName;
    }
    return this.privateNames.get(name) ?? [];
  }
}
