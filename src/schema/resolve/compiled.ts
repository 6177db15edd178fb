import type { Expression, Node, Pattern, Program, Statement } from 'acorn';

/**
 * Reads parameter names, literal defaults and property initialisers from the compiled JavaScript with a
 * real parser (acorn), because the `design:*` metadata carries types only.
 *
 * The text is `Function.prototype.toString()` of the method or class as it runs, so it is whatever the
 * compiler emitted (tsc, ts-jest), never the TypeScript source. Only the shape of the syntax tree is used:
 * nothing is evaluated, and a default that is not a literal or an `Enum.Member` reference reads as `other`
 * (the parameter is optional without a listed default). Text that does not parse (a native or bound
 * function) gives `undefined`, and the caller falls back to `@Param` names and the generator's facts.
 */

/** A default or initialiser as written: a literal value, an `Enum.Member` reference, or anything else. */
export type CompiledValue =
  | { readonly kind: 'literal'; readonly value: string | number | boolean | null }
  | { readonly kind: 'reference'; readonly object: string; readonly property: string }
  | { readonly kind: 'other' };

export interface CompiledParam {
  /** `undefined` for destructured and rest parameters. */
  readonly name?: string;
  readonly default?: CompiledValue;
}

let parse: typeof import('acorn').parse | undefined;

function parseProgram(code: string): Program | undefined {
  // Loaded on the first parse: a program whose every name and default comes from elsewhere never needs it.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  parse ??= (require('acorn') as typeof import('acorn')).parse;
  try {
    return parse(code, { ecmaVersion: 'latest', sourceType: 'script' });
  } catch {
    return undefined;
  }
}

function functionParams(program: Program): readonly Pattern[] | undefined {
  const statement = program.body[0];
  if (statement?.type !== 'ExpressionStatement') return undefined;
  const expr = statement.expression;
  if (expr.type === 'ClassExpression') {
    const method = expr.body.body.find((m) => m.type === 'MethodDefinition');
    return method?.type === 'MethodDefinition' ? method.value.params : undefined;
  }
  if (expr.type === 'FunctionExpression' || expr.type === 'ArrowFunctionExpression') return expr.params;
  return undefined;
}

/**
 * The parameters of a method or function as compiled, or `undefined` when the source cannot be parsed
 * (a native or bound function). Plain parameter lists are read without the parser (see `plainParamsOf`).
 */
export function compiledParamsOf(fn: Function): readonly CompiledParam[] | undefined {
  const code = Function.prototype.toString.call(fn);
  return plainParamsOf(code) ?? parsedParamsOf(code);
}

/** `compiledParamsOf` by the parser alone (exported for the test that holds both readings equal). */
export function parsedParamsOf(code: string): readonly CompiledParam[] | undefined {
  // A method's text (`name(a, b = 3) { ... }`) is not a program on its own; inside a class body it is.
  // Functions and arrows parse as a parenthesised expression instead. The newline keeps a trailing line
  // comment in the text from swallowing the closing bracket.
  const program = parseProgram(`(class { ${code}\n})`) ?? parseProgram(`(${code}\n)`);
  const params = program && functionParams(program);
  return params?.map((p): CompiledParam => {
    if (p.type === 'Identifier') return { name: p.name };
    if (p.type === 'AssignmentPattern' && p.left.type === 'Identifier') return { name: p.left.name, default: valueOf(p.right) };
    return {};
  });
}

/*
 * Most methods a server declares have plain parameter lists, `name(city, days = 3, unit = Unit.Celsius)`,
 * and loading and running acorn for them is a good part of a small server's start-up. `plainParamsOf`
 * reads such lists with regular expressions and answers exactly what the parser would; for anything
 * else (destructuring, comments, calls, escapes, a computed or accessor name, a native function) it
 * answers `undefined` and the parser reads the text.
 */
const IDENTIFIER = '[A-Za-z_$][\\w$]*';
/** `name(`, `async name(`, `*name(`, `async *name(`, `function name(`, `async function* (` ... up to the list. */
const PLAIN_HEAD = new RegExp(
  `^(?:async\\s+)?(?:function\\s*(?:\\*\\s*)?(?:${IDENTIFIER}\\s*)?|(?:\\*\\s*)?${IDENTIFIER}\\s*)\\(([^()]*)\\)\\s*\\{`,
);
const PLAIN_PARAM = new RegExp(`^\\s*(${IDENTIFIER})\\s*(?:=\\s*(.*?)\\s*)?$`, 's');
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?$/;
const STRING = /^(?:"[^"\\\n\r]*"|'[^'\\\n\r]*')$/;
const DOTTED = new RegExp(`^${IDENTIFIER}(?:\\.${IDENTIFIER})*$`);
/** Words that are no plain identifier in a strict-mode parameter list or expression. */
const RESERVED = new Set(
  (
    'await break case catch class const continue debugger default delete do else enum export extends false finally for function if ' +
    'implements import in instanceof interface let new null package private protected public return static super switch this throw ' +
    'true try typeof var void while with yield arguments eval get set async'
  ).split(' '),
);

/** The parameters of a plain parameter list without the parser, or `undefined` when it is not plain. */
export function plainParamsOf(code: string): readonly CompiledParam[] | undefined {
  const head = PLAIN_HEAD.exec(code);
  if (!head || code.includes('[native code]')) return undefined;
  const name = /^(?:async\s+)?(?:\*\s*)?([A-Za-z_$][\w$]*)/.exec(code)?.[1];
  if (name !== undefined && name !== 'function' && RESERVED.has(name)) return undefined;
  const list = head[1];
  if (list.trim() === '') return [];
  const params: CompiledParam[] = [];
  for (const part of list.split(',')) {
    const match = PLAIN_PARAM.exec(part);
    // Strict code refuses a reserved word or a repeated name as a parameter: the parser says so.
    if (!match || RESERVED.has(match[1]) || params.some((p) => p.name === match[1])) return undefined;
    if (match[2] === undefined) {
      params.push({ name: match[1] });
      continue;
    }
    const value = plainValueOf(match[2]);
    if (!value) return undefined;
    params.push({ name: match[1], default: value });
  }
  return params;
}

/** What `valueOf` answers for the plain default `text`, or `undefined` when it is not plain. */
function plainValueOf(text: string): CompiledValue | undefined {
  if (text === 'true' || text === 'false') return { kind: 'literal', value: text === 'true' };
  if (text === 'null') return { kind: 'literal', value: null };
  if (NUMBER.test(text)) return { kind: 'literal', value: Number(text) };
  if (STRING.test(text)) return { kind: 'literal', value: text.slice(1, -1) };
  if (!DOTTED.test(text)) return undefined;
  const names = text.split('.');
  if (names.some((n) => RESERVED.has(n))) return undefined;
  // `x` alone is an identifier (`other`); `Unit.Celsius` and `dto_1.Unit.Celsius` are references.
  if (names.length === 1) return { kind: 'other' };
  return { kind: 'reference', object: names.slice(0, -1).join('.'), property: names[names.length - 1] };
}

const PLAIN_CLASS = new RegExp(`^class(?:\\s+${IDENTIFIER})?(?:\\s+extends\\s+${IDENTIFIER}(?:\\.${IDENTIFIER})*)?\\s*\\{([^]*)\\}$`);
const PLAIN_FIELD = new RegExp(`^(${IDENTIFIER})\\s*(?:=\\s*(.*?)\\s*)?;$`);

/**
 * The initialisers of a class whose body holds nothing but field declarations (`city;`, `days = 3;`) and
 * whole-line comments, as tsc writes a record class, without the parser; `undefined` for any other class
 * (methods, a constructor, static or computed members ...), which the parser reads.
 */
export function plainInitializersOf(code: string): ReadonlyMap<string, CompiledValue> | undefined {
  const body = PLAIN_CLASS.exec(code)?.[1];
  if (body === undefined) return undefined;
  const found = new Map<string, CompiledValue>();
  let inComment = false;
  for (const raw of body.split('\n')) {
    const line = raw.trim();
    if (inComment || line.startsWith('/*')) {
      // A comment ends at the first `*/` after its opening; only a line it ends on exactly is whole.
      const end = line.indexOf('*/', inComment ? 0 : 2);
      if (end !== -1 && end !== line.length - 2) return undefined;
      inComment = end === -1;
      continue;
    }
    if (line === '' || line.startsWith('//')) continue;
    const field = PLAIN_FIELD.exec(line);
    if (!field || RESERVED.has(field[1]) || field[1] === 'constructor') return undefined;
    if (field[2] === undefined) continue;
    const value = plainValueOf(field[2]);
    if (!value) return undefined;
    found.set(field[1], value);
  }
  return inComment ? undefined : found;
}

export function valueOf(node: Expression | Node): CompiledValue {
  if (node.type === 'Literal' && 'value' in node) {
    const v = (node as { value: unknown }).value;
    if (v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return { kind: 'literal', value: v };
  }
  if (node.type === 'UnaryExpression') {
    const u = node as Extract<Expression, { type: 'UnaryExpression' }>;
    const inner = valueOf(u.argument);
    if ((u.operator === '-' || u.operator === '+') && inner.kind === 'literal' && typeof inner.value === 'number') {
      return { kind: 'literal', value: u.operator === '-' ? -inner.value : inner.value };
    }
  }
  if (node.type === 'TemplateLiteral') {
    const t = node as Extract<Expression, { type: 'TemplateLiteral' }>;
    if (t.expressions.length === 0) return { kind: 'literal', value: t.quasis[0].value.cooked ?? '' };
  }
  if (node.type === 'MemberExpression') {
    const m = node as Extract<Expression, { type: 'MemberExpression' }>;
    const property =
      !m.computed && m.property.type === 'Identifier'
        ? m.property.name
        : m.property.type === 'Literal' && typeof m.property.value === 'string'
          ? m.property.value
          : undefined;
    // `Unit.Celsius`, or `dto_1.Unit.Celsius` when the enum is imported into CommonJS output.
    const object = m.object.type === 'Identifier' ? m.object.name : m.object.type === 'MemberExpression' ? dottedName(m.object) : undefined;
    if (object !== undefined && property !== undefined) return { kind: 'reference', object, property };
  }
  return { kind: 'other' };
}

/** `a.b.c` of a member chain of plain identifiers, or `undefined`. */
function dottedName(node: Node): string | undefined {
  if (node.type === 'Identifier') return (node as { name: string } & Node).name;
  if (node.type !== 'MemberExpression') return undefined;
  const m = node as Extract<Expression, { type: 'MemberExpression' }>;
  const object = dottedName(m.object);
  return object !== undefined && !m.computed && m.property.type === 'Identifier' ? `${object}.${m.property.name}` : undefined;
}

function keyName(key: Node, computed: boolean): string | undefined {
  if (!computed && key.type === 'Identifier') return (key as { name: string } & Node).name;
  if (key.type === 'Literal') {
    const v = (key as { value: unknown } & Node).value;
    return typeof v === 'string' || typeof v === 'number' ? String(v) : undefined;
  }
  return undefined;
}

/**
 * `this.x = v` or `Object.defineProperty(this, "x", { ..., value: v })`: how tsc writes an initialiser in
 * the constructor for targets without class fields (the second with `useDefineForClassFields`).
 */
function constructorAssignment(statement: Statement): [string, CompiledValue] | undefined {
  if (statement.type !== 'ExpressionStatement') return undefined;
  const e = statement.expression;
  if (
    e.type === 'AssignmentExpression' &&
    e.operator === '=' &&
    e.left.type === 'MemberExpression' &&
    e.left.object.type === 'ThisExpression'
  ) {
    const name = keyName(e.left.property, e.left.computed);
    return name === undefined ? undefined : [name, valueOf(e.right)];
  }
  if (
    e.type === 'CallExpression' &&
    e.callee.type === 'MemberExpression' &&
    e.callee.object.type === 'Identifier' &&
    e.callee.object.name === 'Object' &&
    keyName(e.callee.property, e.callee.computed) === 'defineProperty' &&
    e.arguments[0]?.type === 'ThisExpression' &&
    e.arguments[1]?.type === 'Literal' &&
    e.arguments[2]?.type === 'ObjectExpression'
  ) {
    const name = String(e.arguments[1].value);
    const value = e.arguments[2].properties.find((p) => p.type === 'Property' && keyName(p.key, p.computed) === 'value');
    return [name, value?.type === 'Property' ? valueOf(value.value) : { kind: 'literal', value: null }];
  }
  return undefined;
}

/**
 * The instance property initialisers of a class (not inherited), from field declarations or from the
 * constructor's assignments (older compile targets), keyed by property name.
 */
export function initializersOf(ctor: Function): ReadonlyMap<string, CompiledValue> {
  const code = Function.prototype.toString.call(ctor);
  return plainInitializersOf(code) ?? parsedInitializersOf(code);
}

/** `initializersOf` by the parser alone (exported for the test that holds both readings equal). */
export function parsedInitializersOf(code: string): ReadonlyMap<string, CompiledValue> {
  const program = parseProgram(`(${code}\n)`);
  const statement = program?.body[0];
  const found = new Map<string, CompiledValue>();
  if (statement?.type !== 'ExpressionStatement' || statement.expression.type !== 'ClassExpression') return found;
  for (const member of statement.expression.body.body) {
    if (member.type === 'PropertyDefinition' && !member.static && member.value) {
      const name = keyName(member.key, member.computed);
      if (name !== undefined) found.set(name, valueOf(member.value));
    }
    if (member.type === 'MethodDefinition' && member.kind === 'constructor') {
      for (const s of member.value.body.body) {
        const assignment = constructorAssignment(s);
        if (assignment) found.set(...assignment);
      }
    }
  }
  return found;
}
