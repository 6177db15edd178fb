import { readdir, stat } from '../node-fs';
import { resolve } from 'node:path';
import { DefinitionError, type Diagnostic } from '../../schema/diagnostics';
import type { SkillModel } from '../../schema/members/skills';
import type { Log } from '../../log';
import { isObject } from '../../objects';
import { canonicalUri, loadSkillCatalog, SkillFolderError, type LoadedSkills, type SkillEntry } from '../sdk/skills';

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

/** Who may use a skill over HTTP with `auth`: the scopes a token must grant, or anyone when `public`. */
export interface SkillAccess {
  readonly scopes: readonly string[];
  readonly public: boolean;
}

/**
 * The skills a server serves (a folder given to `server.addSkills`, the `@Skill` methods of added instances): the
 * SDK's catalog of them and who may use each, as a resource's `scopes` and `public` say it.
 */
export class ServedSkills {
  constructor(
    readonly loaded: LoadedSkills,
    private readonly access: ReadonlyMap<string, SkillAccess>,
  ) {
    for (const entry of loaded.entries) skillListings.add(entry.listing);
  }

  /** Who may use each skill, skill by skill. */
  get accesses(): readonly SkillAccess[] {
    return [...this.access.values()];
  }

  /** Who may use the skill a URI lies in; none outside every skill. */
  accessOf(uri: string): SkillAccess | undefined {
    const owner = this.skillAt(uri) ?? this.ownerOf(uri);
    return owner === undefined ? undefined : this.access.get(owner.name);
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

/** A folder given to `server.addSkills`: where it is, how the call is named in diagnostics, who may use its skills. */
export interface SkillFolder {
  readonly folder: string;
  readonly subject: string;
  readonly access: SkillAccess;
  readonly limits?: SkillsOptions['limits'];
}

/** A `@Skill` method of an added instance. */
export interface DecoratedSkill {
  readonly model: SkillModel;
  readonly instance: object;
  readonly access: SkillAccess;
}

/**
 * Builds the skills a server serves from its folder and its `@Skill` methods, strictly, with the SDK's loader: a
 * folder that does not exist or holds no skill, a method that throws or gives no `SKILL.md`, or a skill the SDK
 * refuses (frontmatter, a symlink, a file over its limits) is a `DefinitionError` (OMCG0017) naming each problem,
 * never a partial catalog.
 */
export async function buildServedSkills(
  folder: SkillFolder | undefined,
  decorated: readonly DecoratedSkill[],
  subject: string,
  log: Log,
): Promise<ServedSkills> {
  const problems: Diagnostic[] = [];
  const root = folder === undefined ? undefined : await checkedFolder(folder, decorated, problems);
  const memory = await filesOf(decorated, problems);
  if (problems.length > 0) throw new DefinitionError(subject, problems);
  // A problem the SDK found is named by path: under a `@Skill` method's skill, the method; else the folder's file.
  const diagnosticOf = (p: { path: string; message: string }) => {
    const method = decorated.find((d) => p.path.split('/')[0] === d.model.name);
    const message = sentence(p.message.replace(/ \(skill skipped\)\.?$/, ''));
    return method ? problem(method.model.where, message, SKILL_FIX) : problem(`${folder?.subject}, ${p.path}`, message);
  };
  let loaded: LoadedSkills;
  try {
    loaded = await loadSkillCatalog({ folder: root, memory: decorated.length > 0 ? memory : undefined }, folder?.limits, (w) =>
      // The SDK's advice names its `reload()`, which this library does not offer: skills are read once.
      log.warn(
        `Skill file ${w.path}${root === undefined ? '' : ` (under ${root})`}: ${w.message.replace('; call reload()', '; restart the server to serve it')}`,
        {
          event: 'resource.failed',
        },
      ),
    );
  } catch (error) {
    if (!(error instanceof SkillFolderError)) throw error;
    throw new DefinitionError(subject, error.problems.map(diagnosticOf));
  }
  const ofFolder = loaded.entries.filter((e) => !decorated.some((d) => d.model.name === e.name));
  if (ofFolder.length === 0 && folder !== undefined)
    throw new DefinitionError(subject, [problem(folder.subject, `${root} holds no skill folder with a SKILL.md.`)]);
  const access = new Map<string, SkillAccess>();
  for (const entry of loaded.entries) access.set(entry.name, decorated.find((d) => d.model.name === entry.name)?.access ?? folder!.access);
  return new ServedSkills(loaded, access);
}

/** The folder's absolute path, once it is seen to be a folder whose skill names no `@Skill` method also takes. */
async function checkedFolder(folder: SkillFolder, decorated: readonly DecoratedSkill[], problems: Diagnostic[]): Promise<string> {
  const root = resolve(folder.folder);
  const found = await stat(root).catch(() => undefined);
  if (found === undefined || !found.isDirectory()) {
    problems.push(problem(folder.subject, found === undefined ? `${root} does not exist.` : `${root} is not a folder.`));
    return root;
  }
  const names = new Set((await readdir(root)).filter((name) => decorated.some((d) => d.model.name === name)));
  for (const d of decorated.filter((d) => names.has(d.model.name)))
    problems.push({
      code: 'OMCG0007',
      where: d.model.where,
      message: `the skill name '${d.model.name}' is already used by the folder ${root}.`,
      fix: 'give one of them another name with @Skill({ name }).',
    });
  return root;
}

/** The files `@Skill` methods give, by path under the catalog (`<skill>/SKILL.md` with its frontmatter written). */
async function filesOf(decorated: readonly DecoratedSkill[], problems: Diagnostic[]): Promise<Record<string, string | Uint8Array>> {
  const files: Record<string, string | Uint8Array> = Object.create(null);
  for (const { model, instance } of decorated) {
    let given: unknown;
    try {
      given = await (instance as Record<string | symbol, () => unknown>)[model.key]();
    } catch (error) {
      problems.push(problem(model.where, `the method threw: ${error instanceof Error ? error.message : String(error)}`, SKILL_FIX));
      continue;
    }
    const skill = skillFilesOf(given);
    if (typeof skill === 'string') problems.push(problem(model.where, skill, SKILL_FIX));
    else {
      files[`${model.name}/SKILL.md`] = `---\nname: ${model.name}\ndescription: ${JSON.stringify(model.description)}\n---\n\n${skill.body}`;
      for (const [path, content] of skill.others) files[`${model.name}/${path}`] = content;
    }
  }
  return files;
}

const SKILL_FIX =
  "Return the SKILL.md body (markdown without frontmatter) or the skill's files by path, such as { 'SKILL.md': body, 'references/setup.md': text }.";

/** A path inside a skill: `/`-separated names, none empty, `.` or `..`. */
const SKILL_PATH = /^(?!.*(?:^|\/)\.{1,2}(?:\/|$))[^/\\\0]+(?:\/[^/\\\0]+)*$/;

/** What a `@Skill` method returned, as a `SKILL.md` body and other files; or why it cannot be served. */
function skillFilesOf(given: unknown): { body: string; others: [string, string | Uint8Array][] } | string {
  const files = typeof given === 'string' ? { 'SKILL.md': given } : given;
  if (!isObject(files)) return `the method returned ${given === null ? 'null' : typeof given}, not a SKILL.md body or files by path.`;
  const body = (files as Record<string, unknown>)['SKILL.md'];
  if (typeof body !== 'string') return 'the files the method returned have no SKILL.md text.';
  if (/^\uFEFF?---\r?\n/.test(body)) return 'the SKILL.md body starts with frontmatter; @Skill writes it from its name and description.';
  const others: [string, string | Uint8Array][] = [];
  for (const [path, content] of Object.entries(files)) {
    if (path === 'SKILL.md') continue;
    if (!SKILL_PATH.test(path)) return `the file path '${path.slice(0, 128)}' is not a relative path inside the skill.`;
    if (typeof content !== 'string' && !(content instanceof Uint8Array))
      return `the file '${path.slice(0, 128)}' is neither text nor bytes.`;
    others.push([path, content]);
  }
  return { body, others };
}
