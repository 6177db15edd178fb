import { Injectable } from '@nestjs/common';
import { CaseDto, NewCaseDto, Priority } from './docket.dto';

/** An in-memory case store, injected into the service like any Nest repository. */
@Injectable()
export class DocketRepository {
  private readonly cases = new Map<number, CaseDto>();
  private nextId = 1;
  /** Cases no MCP client may read (the guard refuses them); not listed among the open cases. */
  private readonly sealed = new Set([7]);

  constructor() {
    this.insert({
      number: '2026-CV-0001',
      title: 'Acme v. Widget',
      priority: Priority.Urgent,
      parties: [{ name: 'Acme', role: 'plaintiff' }],
    });
  }

  insert(input: NewCaseDto | Omit<NewCaseDto, never>): CaseDto {
    const record = Object.assign(new CaseDto(), {
      id: this.nextId++,
      number: input.number,
      title: input.title,
      priority: input.priority,
      openedAt: new Date('2026-11-30T09:00:00Z'),
      parties: input.parties,
      notes: input.notes,
    });
    this.cases.set(record.id, record);
    return record;
  }

  find(id: number): CaseDto | undefined {
    return this.cases.get(id);
  }

  isSealed(id: number): boolean {
    return this.sealed.has(id);
  }

  open(priority?: Priority): CaseDto[] {
    return [...this.cases.values()].filter((c) => priority === undefined || c.priority === priority);
  }
}
