import { OneModelContextError } from '../errors';

/** Definition diagnostic codes (docs/diagnostics.md). */
export type DiagnosticCode =
  | 'OMCG0001'
  | 'OMCG0002'
  | 'OMCG0003'
  | 'OMCG0005'
  | 'OMCG0006'
  | 'OMCG0007'
  | 'OMCG0008'
  | 'OMCG0009'
  | 'OMCG0012'
  | 'OMCG0013'
  | 'OMCG0014'
  | 'OMCG0015'
  | 'OMCG0016'
  | 'OMCG0017'
  | 'OMCG0018';

/** One problem in a declaration: what, where and how to fix it. */
export interface Diagnostic {
  readonly code: DiagnosticCode;
  /** `WeatherTools.getForecast, parameter 'days'`, `..., property 'items[].qty'`. */
  readonly where: string;
  readonly message: string;
  readonly fix: string;
}

export function formatDiagnostic(d: Diagnostic): string {
  return `${d.code} ${d.where}: ${d.message} Fix: ${d.fix}`;
}

/**
 * Every definition problem of a class at once, found when it is added to a server.
 * @example
 * try { server.add(new WeatherTools()); } catch (e) { if (e instanceof DefinitionError) console.error(e.diagnostics); }
 */
export class DefinitionError extends OneModelContextError {
  readonly code = 'DEFINITION_INVALID';
  readonly diagnostics: readonly Diagnostic[];

  constructor(subject: string, diagnostics: readonly Diagnostic[]) {
    const count = diagnostics.length === 1 ? '1 definition problem' : `${diagnostics.length} definition problems`;
    super(`${subject} has ${count}:\n${diagnostics.map((d) => `  ${formatDiagnostic(d)}`).join('\n')}`);
    this.diagnostics = Object.freeze([...diagnostics]);
  }
}

/** Collects the diagnostics of one definition; a local value, never shared between definitions. */
export class Problems {
  private readonly list: Diagnostic[] = [];

  add(code: DiagnosticCode, where: string, message: string, fix: string): undefined {
    this.list.push({ code, where, message, fix });
    return undefined;
  }

  get all(): readonly Diagnostic[] {
    return this.list;
  }

  get count(): number {
    return this.list.length;
  }

  throwIfAny(subject: string): void {
    if (this.list.length > 0) throw new DefinitionError(subject, this.list);
  }
}
