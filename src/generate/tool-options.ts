import type * as TS from 'typescript';
import { isValidName, toolNameOf } from '../schema/members/names';
import type { DecoratorReading } from './decorator-reading';
import type { Reporter } from './diagnostics';

/** Reports a diagnostic that keeps the class being read out of the module. */
type Report = (node: TS.Node, code: Parameters<Reporter['add']>[1], message: string) => void;

/** Checks what a `@Tool(...)`'s literal arguments say: its name (valid, not taken by another tool), its MCP Apps options. */
export function checkToolOptions(
  ts: typeof TS,
  literals: Pick<DecoratorReading, 'text' | 'option'>,
  member: TS.MethodDeclaration,
  args: readonly TS.Expression[],
  key: string,
  where: string,
  toolNames: Map<string, string>,
  report: Report,
): void {
  const { text, option } = literals;
  const name =
    text(args[0]) ?? text(option(args[0], 'name')) ?? (args[0] && !ts.isObjectLiteralExpression(args[0]) ? undefined : toolNameOf(key));
  if (name !== undefined && !isValidName(name)) {
    report(
      member.name,
      'OMCG0008',
      `the tool name '${name}' of ${where} is not valid: use 1 to 128 ASCII letters, digits, '_', '-' or '.'.`,
    );
  }
  if (name !== undefined && toolNames.has(name))
    report(member.name, 'OMCG0007', `${where} and ${toolNames.get(name)} are both named '${name}'.`);
  if (name !== undefined) toolNames.set(name, where);
  const ui = option(args[0], 'uiResource');
  if (text(ui) !== undefined && !text(ui)!.startsWith('ui://'))
    report(ui!, 'OMCG0012', `uiResource '${text(ui)}' of ${where} is not a ui:// URI.`);
  const visibility = option(args[0], 'uiVisibility');
  if (visibility && ts.isArrayLiteralExpression(visibility)) {
    const wrong = visibility.elements.map((e) => text(e)).filter((v) => v !== undefined && v !== 'model' && v !== 'app');
    if (wrong.length > 0) {
      report(
        visibility,
        'OMCG0012',
        `uiVisibility of ${where} holds ${wrong.map((w) => `'${w}'`).join(', ')}: use 'model', 'app' or both.`,
      );
    }
  }
}
