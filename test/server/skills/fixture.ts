import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A folder of skill folders written for one test, removed by `remove`. */
export interface SkillFolder {
  readonly root: string;
  remove(): void;
}

export const GIT_SKILL = '---\nname: git-workflow\ndescription: How we branch and commit.\n---\n# Git\nRead references/GUIDE.md.\n';
export const DEPLOY_SKILL = '---\nname: deploy\ndescription: How we deploy.\n---\nDeploy with care.\n';
export const GUIDE = 'Rebase, then merge.\n';

/** Writes `files` (paths relative to the folder) under a fresh temporary folder. */
export function skillFolder(files: Readonly<Record<string, string | Buffer>>): SkillFolder {
  const root = mkdtempSync(join(tmpdir(), 'omc-skills-'));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return { root, remove: () => rmSync(root, { recursive: true, force: true }) };
}

/** Two skills: git-workflow (with a reference file) and deploy. */
export const TWO_SKILLS = {
  'git-workflow/SKILL.md': GIT_SKILL,
  'git-workflow/references/GUIDE.md': GUIDE,
  'deploy/SKILL.md': DEPLOY_SKILL,
};
