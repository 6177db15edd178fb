import type { Log } from '../../log';
import type { Catalog } from './catalog';
import { buildServedSkills } from './skills';

/**
 * The builds of a catalog's served skills (`addSkills`, `@Skill` methods), one after another: the SDK's loader
 * reads the files asynchronously, and serving waits for the last build.
 */
export class SkillBuilds {
  /** The last build: serving waits for it. */
  private built: Promise<void> = Promise.resolve();
  /** How many builds are in progress: while any is, HTTP requests wait for the last. */
  private pending = 0;

  constructor(
    private readonly catalog: Catalog,
    private readonly log: Log,
  ) {}

  /** What serving awaits: the last build, failing with its `DefinitionError` unless its caller was given it. */
  get last(): Promise<void> {
    return this.built;
  }

  /** Whether a build is in progress. */
  get inProgress(): boolean {
    return this.pending > 0;
  }

  /**
   * Builds the served skills again from the catalog's sources (after the builds in progress); the catalog keeps the
   * skills of the last build that succeeded. Serving waits for the last build, and fails with its `DefinitionError`
   * unless `awaited`: the caller of `addSkills` got the error, and the server serves what it served before.
   */
  build(subject: string, awaited: boolean): Promise<void> {
    const { folder, decorated } = this.catalog.skillSources;
    const sources = [...decorated];
    this.pending++;
    const build = this.built
      .catch(() => undefined)
      .then(() => buildServedSkills(folder, sources, subject, this.log))
      .then((served) => this.catalog.setSkills(served))
      .finally(() => this.pending--);
    this.built = awaited ? build.catch(() => undefined) : build;
    return build;
  }

  /** A build after `server.add`: nobody awaits add(), so a failure is logged now, and serving rethrows it. */
  buildAfterAdd(subject: string): void {
    this.build(subject, false).catch((error: unknown) =>
      this.log.error(`${subject}: its skills cannot be served: ${error instanceof Error ? error.message : String(error)}`, {
        event: 'resource.failed',
      }),
    );
  }
}
