import './start-up';
import 'reflect-metadata';

export { Tool } from './decorators/tool.decorator';
export { Resource } from './decorators/resource.decorator';
export { Prompt } from './decorators/prompt.decorator';
export { Skill } from './decorators/skill.decorator';
export type { ToolOptions, ResourceOptions, PromptOptions, SkillOptions } from './decorators/member-options';
export { Scopes } from './decorators/scopes.decorator';
export { Complete } from './decorators/complete.decorator';
export type { Icon, ResourceAnnotations, CacheOptions, Completer, CompletionContext } from './decorators/listing-options';
export { Param, type ParamOptions } from './decorators/param.decorator';
export { Field, type FieldOptions } from './decorators/field.decorator';
export { Description } from './decorators/description.decorator';
export { Range } from './decorators/range.decorator';
export { StringLength } from './decorators/string-length.decorator';
export { MinLength } from './decorators/min-length.decorator';
export { MaxLength } from './decorators/max-length.decorator';
export { Length } from './decorators/length.decorator';
export { RegularExpression } from './decorators/regular-expression.decorator';
export { EmailAddress } from './decorators/email-address.decorator';
export { Url } from './decorators/url.decorator';
export { ConstraintSchema, type ConstraintSchemaOptions } from './decorators/constraint-schema.decorator';
export {
  Int8,
  Uint8,
  Int16,
  Uint16,
  Int32,
  Uint32,
  Int64,
  Uint64,
  Char,
  Uuid,
  DateOnly,
  TimeOnly,
  TimeSpan,
  Bytes,
  Json,
  JsonObject,
  JsonArray,
  ArrayOf,
  SetOf,
  DictionaryOf,
  Nullable,
  StringLiterals,
  type TypeHint,
  type HintToken,
  type HintCombinator,
  type HintLiterals,
  type EnumObject,
} from './decorators/hints';
export {
  registerSourceFacts,
  SourceClass,
  type SourceFacts,
  type SourceMethodFacts,
  type SourceParamFacts,
  type SourcePropertyFacts,
  type SourceLiteral,
} from './facts/registry';
export { DefinitionError, type Diagnostic, type DiagnosticCode } from './schema/diagnostics';
export type { QuickToolConfig, QuickParam, QuickParams } from './schema/members/quick';
export type { HintValue, QuickArgs, QuickHandlerArgs, QuickParamOptions, QuickParamValue } from './decorators/hint-value';
export type { JsonSchema } from './schema/model';
export type { StandardSchemaV1, StandardIssue, StandardResult } from './decorators/standard-schema';
export {
  RequestContext,
  type RequestContextInit,
  type LogLevel,
  type InputRequest,
  type AuthInfo,
  type HttpRequestInfo,
  type CreateMessageParams,
  type CreateMessageResult,
  type SamplingMessage,
  type SamplingContent,
  type ElicitParams,
  type ElicitResult,
  type ElicitValue,
} from './invoke/request/request-context';
export { OneModelContextError, UsageError, UsageTypeError, UsageRangeError, StoreError, type ErrorCode } from './errors';
export { ToolError, UnknownToolError, ToolTimeoutError, TOOL_FAILED_CHANNEL } from './invoke/calling/errors';
export { stackOf, type McpLogger, type LogDetails, type LogEvent } from './log';
export type { CallToolResult } from './invoke/results/results';
export type { Invocation, InvokeHook, AddOptions } from './invoke/calling/invocation';
export type { Interceptor, InterceptorContext } from './invoke/calling/interceptors';
export {
  callerKey,
  rateLimit,
  MemoryRateLimitStore,
  resultCache,
  argumentsKey,
  auditLog,
  type RateLimitOptions,
  type RateLimitStore,
  type RateLimitHit,
  type ResultCacheOptions,
  type AuditEntry,
} from './interceptors';
export type { ValidationOptions } from './schema/records/validation-options';
export {
  McpServer,
  type McpServerOptions,
  type ServerInfo,
  type CallToolOptions,
  type ListToolsOptions,
  type ShutdownOptions,
  type ServeStdioOptions,
} from './server/mcp-server';
export type { ListingOption, ListingClient, ProfileName } from './schema/profiles/profile';
export type { UiResourceOptions, UiResourceCsp, UiResourcePermissions, UiResourceMeta } from './server/catalog/ui-resource';
export type { SkillsOptions } from './server/catalog/skills';
export type { ToolListing } from './server/catalog/listing';
export type { CatalogKind } from './server/catalog/catalog';
export type { PageSizes, ListName } from './server/catalog/pages';
export { InMemoryServerEventBus, type ServerEventBus, type ServerEvent } from './server/stores/stores';
export { InMemoryEventStore, type EventStore, type InMemoryEventStoreOptions } from './server/stores/event-store';
export { StoreUnavailableError } from './server/stores/degraded';
export {
  InMemoryTaskStore,
  type TaskStore,
  type TaskRecord,
  type TaskUpdate,
  type TaskChange,
  type TaskCaller,
  type TaskError,
} from './server/tasks/store';
export type { TaskOptions } from './server/tasks/tasks';
export type { TaskLimits } from './server/tasks/quota';
export type { TelemetryOptions } from './server/telemetry/options';
export type { ResourceListing, PromptListing } from './server/catalog/resource-listing';
export type { ServeHttpOptions, HttpAddress, HttpHandler, HttpHandlerOptions } from './server/http/entry/endpoint';
export type {
  HttpAuthOptions,
  JwtVerifierOptions,
  IntrospectionOptions,
  CorsOptions,
  AuthorizeItem,
  AuthorizePolicy,
} from './server/auth/options';
export type { HealthOptions } from './server/http/guards/options';
