import type { Icon } from '../../decorators/listing-options';
import type { Log } from '../../log';
import type { CacheHint } from '../../schema/model';
import type { ProfilePicker } from '../../schema/profiles';
import type { Pager } from '../catalog/pages';
import type { TaskRunner } from '../tasks/tasks';
import type { RequestStates } from './signing';

/** What every SDK `Server` over the catalog is made with (server.ts), shared by the handlers it installs. */
export interface ProtocolSettings {
  readonly info: { readonly name: string; readonly version: string; readonly title?: string; readonly icons?: readonly Icon[] };
  /** The cache hint of entries that declare none, and of `server/discover` (2026-07-28). */
  readonly cache: CacheHint;
  readonly instructions?: string;
  readonly states: RequestStates;
  readonly pager: Pager;
  readonly log: Log;
  readonly tasks: TaskRunner;
  /** Largest tool result sent (see result-size.ts); default 16 MiB. */
  readonly maxResultBytes?: number;
  /** The listing profile of a client (schema/profiles); none: the exact listing for everyone. */
  readonly profile?: ProfilePicker;
  /** `catalog: 'search'`: `tools/list` answers the three tools of search-first.ts. */
  readonly searchFirst?: boolean;
}
