import type * as TS from 'typescript';
import type { Reporter } from './diagnostics';

/** A class that reaches another through a property or its base class, for the cycle report. */
export interface Edge {
  readonly to: TS.ClassDeclaration;
  readonly at: TS.Node;
}

/** OMCG0006: a record that reaches itself through properties (or its base class) has no finite inline schema. */
export function reportCycles(edges: ReadonlyMap<TS.ClassDeclaration, readonly Edge[]>, reporter: Reporter): void {
  const done = new Set<TS.ClassDeclaration>();
  const walk = (decl: TS.ClassDeclaration, path: readonly TS.ClassDeclaration[]): void => {
    if (done.has(decl)) return;
    for (const edge of edges.get(decl) ?? []) {
      const at = path.indexOf(edge.to);
      if (edge.to === decl || at >= 0) {
        const cycle = [...path.slice(Math.max(at, 0)), decl, edge.to].map((d) => d.name?.text ?? '(anonymous)');
        if (edge.to === decl) cycle.splice(0, cycle.length - 2);
        reporter.add(
          edge.at,
          'OMCG0006',
          `${edge.to.name?.text} refers to itself (${cycle.join(' -> ')}): use Json or an id instead.`,
          decl,
        );
      } else {
        walk(edge.to, [...path, decl]);
      }
    }
    done.add(decl);
  };
  for (const decl of edges.keys()) walk(decl, []);
}
