import {
  Catch,
  Injectable,
  Logger,
  NotFoundException,
  type ArgumentsHost,
  type CallHandler,
  type CanActivate,
  type ExceptionFilter,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { McpExecutionContext, type McpContextType } from 'onemodelcontext/nest';
import { tap, type Observable } from 'rxjs';
import { DocketRepository } from './docket.repository';

/** Thrown by the service when a case does not exist; the filter below tells the model. */
export class CaseNotFoundError extends Error {
  constructor(readonly id: number) {
    super(`case ${id} not found`);
  }
}

/** Refuses every call about a sealed case, whatever tool, resource or prompt asks. */
@Injectable()
export class SealedCaseGuard implements CanActivate {
  constructor(private readonly repository: DocketRepository) {}

  canActivate(context: ExecutionContext): boolean {
    if (context.getType<McpContextType>() !== 'mcp') return true;
    const { id } = McpExecutionContext.create(context).getArgs<{ id?: number }>();
    return id === undefined || !this.repository.isSealed(id);
  }
}

/** Logs how long each MCP call took, after its result is known. */
@Injectable()
export class TimingInterceptor implements NestInterceptor {
  private readonly logger = new Logger('Docket');

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType<McpContextType>() !== 'mcp') return next.handle();
    const call = McpExecutionContext.create(context);
    const started = performance.now();
    return next
      .handle()
      .pipe(tap(() => this.logger.log(`${call.getKind()} ${call.getName()} took ${(performance.now() - started).toFixed(1)} ms`)));
  }
}

/** A missing case: an error result the model can act on for a tool, "resource not found" for a resource. */
@Catch(CaseNotFoundError)
export class CaseNotFoundFilter implements ExceptionFilter {
  catch(error: CaseNotFoundError, host: ArgumentsHost): unknown {
    if (McpExecutionContext.create(host).getKind() !== 'tool') throw new NotFoundException();
    return { content: [{ type: 'text', text: `There is no case ${error.id}.` }], isError: true };
  }
}
