import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { DefinitionError, type Diagnostic } from '../../schema/diagnostics';
import type { Log } from '../../log';
import { canonicalUri, loadSkillFolder, SkillFolderError, type LoadedSkills, type SkillEntry } from '../sdk/skills';

/** The Skills extension's identifier (SEP-2640), as capabilities name it; naming it loads no SDK module. */
export const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';

/** The methods the Skills extension adds (the SDK's `SKILLS_LIST_METHOD`, `SKILLS_GET_METHOD`, `RESOURCES_DIRECTORY_READ_METHOD`). */
export const SKILLS_METHODS = Object.freeze({
  list: 'skills/list',
  get: 'skills/get',
  directoryRead: 'resources/directory/read',
});

/** The `resources/list` entries of served skills' `SKILL.md` files. */
const skillListings = new WeakSet<object>();

/** Whether a `resources/list` entry is a skill's `SKILL.md` (authorized as the skill). */
export function isSkillListing(entry: object): boolean {
  return skillListings.has(entry);
}

/**
 * The skills `server.addSkills(folder)` serves: the SDK's catalog of the folder and who may use them over HTTP with
 * `auth` (the scopes a token must grant, or anyone when `public`), as a resource's `scopes` and `public` say it.
 */
export class ServedSkills {
  readonly scopes: readonly string[];
  readonly public: boolean;

  constructor(
    readonly loaded: LoadedSkills,
    access: { readonly scopes?: readonly string[]; readonly public?: boolean },
  ) {
    this.public = access.public === true;
    this.scopes = Object.freeze(this.public ? [] : [...(access.scopes ?? [])]);
    for (const entry of loaded.entries) skillListings.add(entry.listing);
  }

  get entries(): readonly SkillEntry[] {
    return this.loaded.entries;
  }

  /** The skill whose `SKILL.md` is at `uri` (compared canonically, as the SDK does). */
  skillAt(uri: string): SkillEntry | undefined {
    const canonical = canonicalUri(uri);
    return canonical === undefined ? undefined : this.entries.find((s) => canonicalUri(s.uri) === canonical);
  }

  /** The skill a URI lies in (a file or a directory of it, or its folder); none outside every skill. */
  ownerOf(uri: string): SkillEntry | undefined {
    const canonical = canonicalUri(uri);
    if (canonical === undefined) return undefined;
    const inside = (s: SkillEntry) => canonical.startsWith(s.root) || `${canonical}/` === s.root;
    // The deepest folder wins, should one skill's folder hold another's.
    return this.entries.filter(inside).sort((a, b) => b.root.length - a.root.length)[0];
  }

  /** The skill that published this file (its exact canonical URI); none for any other URI. */
  fileOwner(uri: string): SkillEntry | undefined {
    const canonical = canonicalUri(uri);
    return canonical === undefined ? undefined : this.entries.find((s) => s.files.has(canonical));
  }
}

/** What `server.addSkills(folder, options)` takes besides the folder. */
export interface SkillsOptions {
  /** What a caller's token must grant to list, get and read these skills over HTTP with `auth` (default none). */
  readonly scopes?: readonly string[];
  /** Served to callers without a token too (`auth.allowAnonymous`); contradicts `scopes`. */
  readonly public?: boolean;
  /** Most files and bytes per skill (the SDK's `SKILL_LIMITS`: 512 files, 16 MiB); a skill over them is refused. */
  readonly limits?: { readonly files?: number; readonly bytes?: number };
}

const FIX = "Give a folder of skill folders, each with a SKILL.md whose frontmatter has a name (its folder's) and a description.";

const sentence = (text: string) => (text.endsWith('.') ? text : `${text}.`);

function problem(where: string, message: string, fix = FIX): Diagnostic {
  return { code: 'OMCG0017', where, message, fix };
}

/**
 * Loads every skill under `folder` with the SDK's folder adapter, strictly: a folder that does not exist, holds no
 * skill, or has a skill the SDK refuses (frontmatter, a symlink, a file over the SDK's limits) is a `DefinitionError`
 * (OMCG0017) naming each problem, never a partial catalog.
 */
export async function loadServedSkills(folder: string, options: SkillsOptions, log: Log): Promise<ServedSkills> {
  const subject = `server.addSkills('${folder}')`;
  const root = resolve(folder);
  const found = await stat(root).catch(() => undefined);
  if (found === undefined || !found.isDirectory())
    throw new DefinitionError(subject, [problem(subject, found === undefined ? `${root} does not exist.` : `${root} is not a folder.`)]);
  let loaded: LoadedSkills;
  try {
    loaded = await loadSkillFolder(root, options.limits, (w) =>
      // The SDK's advice names its `reload()`, which addSkills does not offer: the folder is read once.
      log.warn(`Skill file ${w.path} (under ${root}): ${w.message.replace('; call reload()', '; restart the server to serve it')}`, {
        event: 'resource.failed',
      }),
    );
  } catch (error) {
    if (!(error instanceof SkillFolderError)) throw error;
    throw new DefinitionError(
      subject,
      error.problems.map((p) => problem(`${subject}, ${p.path}`, sentence(p.message.replace(/ \(skill skipped\)\.?$/, '')))),
    );
  }
  if (loaded.entries.length === 0) throw new DefinitionError(subject, [problem(subject, `${root} holds no skill folder with a SKILL.md.`)]);
  return new ServedSkills(loaded, options);
}
