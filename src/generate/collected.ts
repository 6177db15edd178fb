import type * as TS from 'typescript';
import type { SourceLiteral } from '../facts/registry';
import type { TypeFact } from './types';

/** What the generated module writes for one parameter, method, property and class. */
export interface ParamOut {
  readonly name: string;
  readonly description?: string;
  readonly type?: TypeFact;
  readonly optional: boolean;
  readonly default?: SourceLiteral;
  /** Filled in by the server: written so that no `design:paramtypes` is needed to tell it from an argument. */
  readonly context?: 'RequestContext' | 'AbortSignal';
}

export interface MethodOut {
  readonly name: string;
  readonly description?: string;
  readonly params: readonly ParamOut[];
  readonly returns?: TypeFact;
}

export interface PropertyOut {
  readonly key: string;
  readonly description?: string;
  readonly type?: TypeFact;
  readonly design?: string;
  readonly optional: boolean;
  readonly default?: SourceLiteral;
}

export interface ClassOut {
  readonly decl: TS.ClassDeclaration;
  methods?: MethodOut[];
  properties?: PropertyOut[];
}

/** A declaration the generated module imports, with the name it is exported under. */
export interface Imported {
  readonly decl: TS.ClassDeclaration | TS.EnumDeclaration;
  readonly exportName: string;
}

export interface Collected {
  /** The classes whose facts are written: every class read without a diagnostic. */
  readonly classes: readonly ClassOut[];
  readonly imports: readonly Imported[];
  /** Classes the module cannot import (not exported): registered by name, referred to by `SourceClass('Name')`. */
  readonly privates: ReadonlySet<TS.ClassDeclaration>;
  /** Classes left out because of a diagnostic. */
  readonly leftOut: number;
}
