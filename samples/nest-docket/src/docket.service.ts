import { Injectable, UseFilters, UseGuards } from '@nestjs/common';
import { Description, Int32, Nullable, Param, Prompt, Range, Resource, Tool } from 'onemodelcontext';
import { CaseDto, NewCaseDto, Priority } from './docket.dto';
import { DocketRepository } from './docket.repository';
import { CaseNotFoundError, CaseNotFoundFilter, SealedCaseGuard } from './docket.enhancers';

/**
 * The docket's MCP surface: an ordinary Nest service with decorated methods. Its calls run through Nest's
 * pipeline: the guard refuses sealed cases, the filter answers missing ones.
 */
@Injectable()
@UseGuards(SealedCaseGuard)
@UseFilters(CaseNotFoundFilter)
export class DocketService {
  constructor(private readonly repository: DocketRepository) {}

  @Tool({ readOnly: true })
  @Description('Lists open cases, optionally of one priority')
  listOpenCases(@Param({ type: Nullable(Priority), description: 'Only this priority' }) priority: Priority | null = null): string {
    const cases = this.repository.open(priority ?? undefined);
    return cases.map((c) => `${c.number} ${c.title} (${c.priority})`).join('\n') || 'No open cases.';
  }

  @Tool({ description: 'Gets one case by id', readOnly: true, returns: CaseDto })
  async getDocketAsync(@Param({ type: Int32 }) @Range(1, 1_000_000) id: number): Promise<CaseDto> {
    const found = this.repository.find(id);
    if (!found) throw new CaseNotFoundError(id);
    return found;
  }

  @Tool({ description: 'Opens a new case', idempotent: false })
  openCase(input: NewCaseDto): CaseDto {
    return this.repository.insert(input);
  }

  @Resource('docket://cases/{id}', { description: 'One case as JSON', mimeType: 'application/json' })
  caseResource(@Param({ type: Int32 }) id: number): string {
    const found = this.repository.find(id);
    if (!found) throw new CaseNotFoundError(id);
    return JSON.stringify(found);
  }

  @Prompt({ description: 'Drafts a status summary of a case' })
  summarizeCase(@Param({ type: Int32 }) id: number, @Param({ type: Priority }) tone: Priority = Priority.Normal): string {
    const found = this.repository.find(id);
    return `Summarize case ${found?.number ?? id} ("${found?.title ?? 'unknown'}") for a ${tone} briefing.`;
  }
}
