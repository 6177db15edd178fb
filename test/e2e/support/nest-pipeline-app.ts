import {
  Catch,
  ConsoleLogger,
  ForbiddenException,
  Inject,
  Injectable,
  Module,
  NotFoundException,
  Scope,
  ServiceUnavailableException,
  UseFilters,
  UseGuards,
  UseInterceptors,
  UsePipes,
  type ArgumentMetadata,
  type PipeTransform,
  type CallHandler,
  type CanActivate,
  type DynamicModule,
  type ExceptionFilter,
  type ExecutionContext,
  type NestInterceptor,
  type ArgumentsHost,
} from '@nestjs/common';
import { APP_GUARD, APP_INTERCEPTOR, REQUEST } from '@nestjs/core';
import { map, of, tap, type Observable } from 'rxjs';
import { Int32, Param, Prompt, RequestContext, Resource, Tool, ToolError } from 'onemodelcontext';
import { McpExecutionContext, McpModule, type McpContextType, type McpModuleOptions } from 'onemodelcontext/nest';

/** Everything the enhancers of the pipeline tests saw, for the tests to read. */
export class Seen {
  readonly timings: { tool: string; ms: number; result: unknown }[] = [];
  readonly guardSaw: { kind: string; name: string; args: unknown; requestId: unknown }[] = [];
  readonly pipeSaw: ArgumentMetadata[] = [];
  calls = 0;
  perCallInstances = 0;
  transientInstances = 0;
}

/** A domain error that only a filter turns into a result. */
export class OrderClosedError extends Error {
  constructor(readonly id: number) {
    super(`order ${id} is closed (row lock 0x1f)`);
  }
}

@Catch(OrderClosedError)
export class OrderClosedFilter implements ExceptionFilter {
  catch(error: OrderClosedError, host: ArgumentsHost) {
    const call = McpExecutionContext.create(host);
    return { content: [{ type: 'text', text: `Order ${error.id} is closed; ${call.getName()} cannot change it.` }], isError: true };
  }
}

/** Denies everything: the global guard of the deny-all application. */
@Injectable()
export class DenyAll implements CanActivate {
  canActivate(): boolean {
    return false;
  }
}

/** Refuses order 13 and records what it saw of each call. */
@Injectable()
export class UnluckyGuard implements CanActivate {
  constructor(private readonly seen: Seen) {}
  canActivate(context: ExecutionContext): boolean {
    if (context.getType<McpContextType>() !== 'mcp') return true;
    const call = McpExecutionContext.create(context);
    this.seen.guardSaw.push({
      kind: call.getKind(),
      name: call.getName(),
      args: { ...call.getArgs<Record<string, unknown>>() },
      requestId: call.getContext().requestId,
    });
    if (call.getArgs<{ id?: number }>().id === 13) throw new ForbiddenException('order 13 belongs to the audit team (ticket SEC-42)');
    return true;
  }
}

@Injectable()
export class NeverGuard implements CanActivate {
  canActivate(): boolean {
    return false;
  }
}

/** Times every MCP call and sees its result before it is written (global). */
@Injectable()
export class TimingInterceptor implements NestInterceptor {
  constructor(private readonly seen: Seen) {}
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType<McpContextType>() !== 'mcp') return next.handle();
    const started = performance.now();
    const name = McpExecutionContext.create(context).getName();
    return next.handle().pipe(tap((result) => this.seen.timings.push({ tool: name, ms: performance.now() - started, result })));
  }
}

@Injectable()
export class UpperCaseInterceptor implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(map((text) => String(text).toUpperCase()));
  }
}

/** Answers from its cache without calling the method. */
@Injectable()
export class CacheInterceptor implements NestInterceptor {
  intercept(): Observable<unknown> {
    return of('from the cache');
  }
}

/** Trims strings, and records what Nest told it about each argument. */
@Injectable()
export class TrimPipe implements PipeTransform {
  constructor(private readonly seen: Seen) {}
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    this.seen.pipeSaw.push(metadata);
    return typeof value === 'string' ? value.trim() : value;
  }
}

@Injectable()
@UseGuards(UnluckyGuard)
export class OrderTools {
  constructor(private readonly seen: Seen) {}

  @Tool()
  getOrder(@Param({ type: Int32 }) id: number): string {
    this.seen.calls++;
    if (id !== 1) throw new NotFoundException(`Order ${id} not found`);
    return 'order 1: 3 widgets';
  }

  @Tool()
  @UseGuards(NeverGuard)
  deleteOrder(@Param({ type: Int32 }) id: number): string {
    this.seen.calls++;
    return `deleted ${id}`;
  }

  @Tool()
  @UseFilters(OrderClosedFilter)
  closeOrder(@Param({ type: Int32 }) id: number): string {
    throw new OrderClosedError(id);
  }

  @Tool()
  explode(): string {
    throw new Error('connection to db-7.internal refused (password=hunter2)');
  }

  @Tool()
  unavailable(): string {
    throw new ServiceUnavailableException('replica 3 of orders-db is down');
  }

  @Tool()
  domainError(): string {
    throw new ToolError('Orders are read-only during the audit.');
  }

  @Tool()
  @UseInterceptors(UpperCaseInterceptor)
  shout(text: string): string {
    return text;
  }

  @Tool()
  @UsePipes(TrimPipe)
  echo(text: string, @Param({ type: Int32 }) times: number): string {
    return Array(times).fill(text).join('|');
  }

  @Tool()
  @UseInterceptors(CacheInterceptor)
  cached(): string {
    this.seen.calls++;
    return 'from the method';
  }

  @Resource('orders://{id}', { mimeType: 'text/plain' })
  orderText(@Param({ type: Int32 }) id: number): string {
    if (id !== 1) throw new NotFoundException(`Order ${id} not found`);
    return 'order 1';
  }

  @Prompt()
  @UseGuards(NeverGuard)
  secretPrompt(): string {
    return 'never';
  }
}

/** A fresh instance per call, given the call's RequestContext as Nest's REQUEST. */
@Injectable({ scope: Scope.REQUEST })
export class PerCallTools {
  readonly number: number;
  constructor(
    @Inject(REQUEST) private readonly request: RequestContext,
    seen: Seen,
  ) {
    this.number = ++seen.perCallInstances;
  }

  @Tool()
  whoAmI(ctx: RequestContext): string {
    return JSON.stringify({ instance: this.number, sameContext: ctx === this.request, requestId: this.request.requestId });
  }
}

@Injectable({ scope: Scope.TRANSIENT })
export class TransientTools {
  readonly number: number;
  constructor(seen: Seen) {
    this.number = ++seen.transientInstances;
  }

  @Tool()
  transientNumber(): string {
    return String(this.number);
  }
}

/** Every log line the application writes, by level. */
export class CapturingLogger extends ConsoleLogger {
  readonly lines: { level: string; message: unknown; rest: unknown[] }[] = [];
  override error(message: unknown, ...rest: unknown[]): void {
    this.lines.push({ level: 'error', message, rest });
  }
  override warn(message: unknown, ...rest: unknown[]): void {
    this.lines.push({ level: 'warn', message, rest });
  }
  override log(message: unknown, ...rest: unknown[]): void {
    this.lines.push({ level: 'log', message, rest });
  }
  override debug(message: unknown, ...rest: unknown[]): void {
    this.lines.push({ level: 'debug', message, rest });
  }
  override verbose(message: unknown, ...rest: unknown[]): void {
    this.lines.push({ level: 'verbose', message, rest });
  }
}

@Module({})
export class PipelineModule {
  /** The orders application; `denyAll` adds a global guard that refuses everything, `mcp` is added to the module's options. */
  static register(options: { readonly denyAll?: boolean; readonly mcp?: Partial<McpModuleOptions> } = {}): DynamicModule {
    return {
      module: PipelineModule,
      imports: [McpModule.forRoot({ name: 'orders', version: '1.0.0', transport: 'http', ...options.mcp })],
      providers: [
        Seen,
        UnluckyGuard,
        OrderTools,
        PerCallTools,
        TransientTools,
        { provide: APP_INTERCEPTOR, useClass: TimingInterceptor },
        ...(options.denyAll ? [{ provide: APP_GUARD, useClass: DenyAll }] : []),
      ],
    };
  }
}
