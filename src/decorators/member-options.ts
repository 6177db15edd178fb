/**
 * The options of `@Tool`, `@Resource` and `@Prompt`, apart from their decorators so that the metadata module
 * can name them without importing the decorators (which import it).
 */
import type { TypeHint } from './hints';
import type { CacheOptions, Completer, Icon, ResourceAnnotations } from './listing-options';

/** Options of {@link Tool}. */
export interface ToolOptions {
  /** The tool name; default: the method name in snake_case without a trailing `Async`. */
  readonly name?: string;
  readonly title?: string;
  readonly description?: string;
  readonly readOnly?: boolean;
  readonly destructive?: boolean;
  readonly idempotent?: boolean;
  readonly openWorld?: boolean;
  /** Type hint of the result, needed for async methods (metadata only says `Promise`). */
  readonly returns?: TypeHint;
  /** The `ui://` resource that renders the result (MCP Apps). */
  readonly uiResource?: string;
  /** Who may call the tool under MCP Apps; default both. */
  readonly uiVisibility?: readonly ('model' | 'app')[];
  /**
   * Lets a client run the tool as a task (a long-running call it polls): `'optional'` (either way) or
   * `'required'` (only as a task). Listed as `execution.taskSupport`.
   */
  readonly task?: 'optional' | 'required';
  /**
   * With `task`, on 2026-07-28: a call without `inputResponses` runs as an ordinary call, so the input the tool
   * asks for with `ctx.requireInput` goes by multi-round trip on `tools/call`; the call that brings the answers
   * starts the task. Default `false`: every call from a client that declared the tasks extension starts one.
   */
  readonly taskAfterInput?: boolean;
  /** Scopes a caller's token must grant, over HTTP with `auth`; default: the class's `@Scopes`, else none. */
  readonly scopes?: readonly string[];
  /**
   * Over HTTP with `auth: { allowAnonymous: true }`: listed to and callable by callers without a token (it needs
   * no scope). Its `securitySchemes` say `noauth`.
   */
  readonly public?: boolean;
  /** Icons a client can show next to the tool (listed from protocol revision 2025-11-25). */
  readonly icons?: readonly Icon[];
  /** How long a client may reuse a `tools/list` that holds this tool (protocol revision 2026-07-28). */
  readonly cache?: CacheOptions;
}

/** Options of {@link Resource}. */
export interface ResourceOptions {
  readonly name?: string;
  readonly title?: string;
  readonly description?: string;
  /** Default `text/plain` for text results. */
  readonly mimeType?: string;
  /** Scopes a caller's token must grant, over HTTP with `auth`; default: the class's `@Scopes`, else none. */
  readonly scopes?: readonly string[];
  /** Over HTTP with `auth: { allowAnonymous: true }`: listed to and served to callers without a token (it needs no scope). */
  readonly public?: boolean;
  /** Icons a client can show next to the resource (listed from protocol revision 2025-11-25). */
  readonly icons?: readonly Icon[];
  /** Size of the content in bytes, if known (static resources only: a template has no one size). */
  readonly size?: number;
  /** Audience, priority and last change of the content. */
  readonly annotations?: ResourceAnnotations;
  /** How long a client may reuse what `resources/read` returns and a list that holds this entry (protocol revision 2026-07-28). */
  readonly cache?: CacheOptions;
  /** Completion functions by template variable (the same as `@Complete(fn)` on the parameter). */
  readonly complete?: Readonly<Record<string, Completer>>;
}

/** Options of {@link Prompt}. */
export interface PromptOptions {
  readonly name?: string;
  readonly title?: string;
  readonly description?: string;
  /** Scopes a caller's token must grant, over HTTP with `auth`; default: the class's `@Scopes`, else none. */
  readonly scopes?: readonly string[];
  /** Over HTTP with `auth: { allowAnonymous: true }`: listed to and served to callers without a token (it needs no scope). */
  readonly public?: boolean;
  /** Icons a client can show next to the prompt (listed from protocol revision 2025-11-25). */
  readonly icons?: readonly Icon[];
  /** How long a client may reuse a `prompts/list` that holds this prompt (protocol revision 2026-07-28). */
  readonly cache?: CacheOptions;
  /** Completion functions by argument name (the same as `@Complete(fn)` on the parameter). */
  readonly complete?: Readonly<Record<string, Completer>>;
}

/** Options of {@link Skill}. */
export interface SkillOptions {
  /**
   * The skill's name, as its `SKILL.md` frontmatter and its `skill://<name>/` URIs carry it: lowercase letters,
   * digits and single hyphens, at most 64 characters. Default: the method name in kebab-case (`gitWorkflow` ->
   * `git-workflow`).
   */
  readonly name?: string;
  /** What the skill is for and when to use it (the frontmatter's `description`); default: the method's `@Description`. */
  readonly description?: string;
  /** Scopes a caller's token must grant, over HTTP with `auth`; default: the class's `@Scopes`, else none. */
  readonly scopes?: readonly string[];
  /** Over HTTP with `auth: { allowAnonymous: true }`: listed to and served to callers without a token (it needs no scope). */
  readonly public?: boolean;
}
