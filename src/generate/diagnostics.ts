import * as path from 'node:path';
import type * as TS from 'typescript';
import type { DiagnosticCode } from '../schema/diagnostics';

/**
 * Build-time diagnostics, printed like compiler errors: `src/x.ts:12:3 - OMCG0004 ...`. The codes are
 * those of docs/diagnostics.md; OMCG0004 and OMCG0010 can only be seen here.
 */
export type GenerateCode = Exclude<DiagnosticCode, 'OMCG0013' | 'OMCG0014' | 'OMCG0016' | 'OMCG0018'> | 'OMCG0004' | 'OMCG0010';

export interface GenerateDiagnostic {
  readonly file: string;
  /** 1-based. */
  readonly line: number;
  /** 1-based. */
  readonly column: number;
  readonly code: GenerateCode;
  readonly message: string;
}

/**
 * Collects diagnostics at nodes; one per code and position. Each names the class it keeps out of the
 * generated module (its `owner`), when there is one: the other classes' facts are still written.
 */
export class Reporter {
  private readonly list: GenerateDiagnostic[] = [];
  private readonly failed = new Set<TS.Node>();

  add(node: TS.Node, code: GenerateCode, message: string, owner?: TS.Node): void {
    if (owner) this.failed.add(owner);
    const source = node.getSourceFile();
    const at = source.getLineAndCharacterOfPosition(node.getStart(source));
    const diagnostic = { file: source.fileName, line: at.line + 1, column: at.character + 1, code, message };
    if (
      !this.list.some((d) => d.file === diagnostic.file && d.line === diagnostic.line && d.column === diagnostic.column && d.code === code)
    ) {
      this.list.push(diagnostic);
    }
  }

  /** Whether a diagnostic keeps this class out of the generated module. */
  hasFailed(decl: TS.Node): boolean {
    return this.failed.has(decl);
  }

  get all(): readonly GenerateDiagnostic[] {
    return [...this.list].sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column);
  }
}

export function formatGenerateDiagnostic(d: GenerateDiagnostic, cwd: string): string {
  return `${path.relative(cwd, d.file).split(path.sep).join('/')}:${d.line}:${d.column} - ${d.code} ${d.message}`;
}
