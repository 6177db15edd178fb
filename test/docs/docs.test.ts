import * as fs from 'node:fs';
import * as path from 'node:path';
import { ensureBuilt } from '../e2e/support/build';
import { typeCheck } from '../support/typecheck';

// Issue 11: the documentation lives in the repository and its code compiles. Every ```ts block of
// README.md and docs/*.md is a complete module, type-checked here against the built package; every link
// stays inside the repository and points at a file (and heading) that exists.
const ROOT = path.join(__dirname, '..', '..');
const PAGES = [
  'README.md',
  ...fs
    .readdirSync(path.join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

interface Block {
  readonly page: string;
  /** 1-based line of the block's first code line in the page. */
  readonly line: number;
  readonly code: string;
}

function blocksOf(page: string, language: string): Block[] {
  const lines = fs.readFileSync(path.join(ROOT, page), 'utf8').split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const fence = /^(\s*)```(\S*)/.exec(lines[i]);
    if (!fence) continue;
    const end = lines.findIndex((l, j) => j > i && /^\s*```\s*$/.test(l));
    if (fence[2] === language) blocks.push({ page, line: i + 2, code: lines.slice(i + 1, end).join('\n') });
    i = end;
  }
  return blocks;
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
function anchorsOf(page: string): Set<string> {
  const text = fs.readFileSync(path.join(ROOT, page), 'utf8').replace(/```[\s\S]*?```/g, '');
  const headings = [...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => m[1]);
  return new Set(
    headings.map((h) =>
      h
        .toLowerCase()
        .replace(/[^\p{L}\p{N} _-]/gu, '')
        .replace(/ /g, '-'),
    ),
  );
}

function linksOf(page: string): string[] {
  const text = fs.readFileSync(path.join(ROOT, page), 'utf8').replace(/```[\s\S]*?```/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]);
}

/** Why a link is broken, or undefined. */
function brokenLink(page: string, link: string): string | undefined {
  if (/^[a-z]+:/i.test(link)) return 'points outside the repository';
  const [file, anchor] = link.split('#');
  const target = file === '' ? path.join(ROOT, page) : path.resolve(path.dirname(path.join(ROOT, page)), file);
  if (path.relative(ROOT, target).startsWith('..')) return 'points outside the repository';
  if (!fs.existsSync(target)) return 'points at a file that does not exist';
  if (anchor && target.endsWith('.md') && !anchorsOf(path.relative(ROOT, target)).has(anchor)) return `has no heading #${anchor}`;
  return undefined;
}

describe('documentation', () => {
  beforeAll(() => ensureBuilt(), 300_000);

  it('has the pages the README links to', () => {
    expect(PAGES).toEqual(expect.arrayContaining(['README.md', 'docs/index.md', 'docs/getting-started.md', 'docs/diagnostics.md']));
  });

  it('compiles every ts block as a complete module, against the built package', () => {
    const blocks = PAGES.flatMap((page) => blocksOf(page, 'ts'));
    expect(blocks.length).toBeGreaterThan(20);
    // In memory, inside the repository so that imports resolve from its node_modules.
    const virtual = new Map(
      blocks.map((b) => [path.join(ROOT, '.docs-blocks', `${b.page.replace(/\//g, '__')}__L${b.line}.ts`), `${b.code}\nexport {};\n`]),
    );
    const where = (d: string) =>
      d.replace(
        /^\.docs-blocks\/(.+?)__L(\d+)\.ts:(\d+):(\d+)/,
        (_, page: string, start: string, line: string, col: string) =>
          `${page.replace(/__/g, '/')}:${Number(start) + Number(line) - 1}:${col}`,
      );
    expect(typeCheck([], virtual).map(where)).toEqual([]);
  });

  it('links only to files and headings inside the repository', () => {
    const broken = PAGES.flatMap((page) => linksOf(page).map((link) => [page, link, brokenLink(page, link)] as const)).filter(
      ([, , why]) => why,
    );
    expect(broken.map(([page, link, why]) => `${page}: (${link}) ${why}`)).toEqual([]);
  });

  it('keeps the README short: what it is, the two commands, one example, links', () => {
    const lines = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8').split('\n').length;
    expect(lines).toBeLessThanOrEqual(170);
  });
});
