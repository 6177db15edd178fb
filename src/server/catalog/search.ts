import type { ToolListing } from './listing';
import { isObjectLike } from '../../objects';

/**
 * The ranking of the search-first catalog (`catalog: 'search'`): BM25 (Robertson and Zaragoza's Okapi BM25, k1 1.2,
 * b 0.75) over one bag of words per tool, each field's words counted with its weight (BM25F in its simplest form):
 * the name's words (split on camelCase, `_`, `-`, digits) 3, the title's 2, the description's 1, each parameter's
 * name 1 and description 0.5. Words are lower-cased, their commonest endings taken off, a few very common English
 * words dropped. No library: none of the usual ones (MiniSearch, FlexSearch, Lunr, Fuse) is a dependency, and this is
 * some 150 lines.
 *
 * An index is built over one array of listings (the catalog's, rebuilt after each change), on the first search
 * of that array, and kept while the array lives. A search scores every tool holding a word of the query and
 * keeps the best among those the caller may see.
 */

/** The three tools `tools/list` answers under `catalog: 'search'` (protocol/search-first.ts). */
export const SEARCH_TOOLS = 'search_tools';
export const DESCRIBE_TOOL = 'describe_tool';
export const CALL_TOOL = 'call_tool';
export const SEARCH_FIRST_NAMES: ReadonlySet<string> = new Set([SEARCH_TOOLS, DESCRIBE_TOOL, CALL_TOOL]);

const K1 = 1.2;
const B = 0.75;

const WEIGHTS = { name: 3, title: 2, description: 1, param: 1, paramDescription: 0.5 } as const;

/** Words too common to tell tools apart. */
const STOP_WORDS: ReadonlySet<string> = new Set(
  'a an and are as at be by for from has have in into is it its of on or the that this to was with which what who how do does i me my you your can'.split(
    ' ',
  ),
);

/**
 * A word as indexed: lower case, with the commonest English endings taken off (`ies` → `y`, then `ing`, `ed` or a
 * plural's `s`, then a final `e`), so that "schedule", "scheduled" and "schedules" are one word. Far less than a
 * Porter stemmer, and enough for tool descriptions.
 */
function normalized(word: string): string {
  let w = word;
  if (w.length > 4 && w.endsWith('ies')) return `${w.slice(0, -3)}y`;
  if (w.length > 5 && w.endsWith('ing')) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith('ed')) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us')) w = w.slice(0, -1);
  if (w.length > 3 && w.endsWith('e')) w = w.slice(0, -1);
  return w;
}

/** The words of a text: split on anything not a letter or digit and on camelCase boundaries, normalized, stop words out. */
export function wordsOf(text: string): string[] {
  const words: string[] = [];
  const split = text.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2');
  for (const raw of split.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    if (raw === '' || STOP_WORDS.has(raw)) continue;
    words.push(normalized(raw));
  }
  return words;
}

interface Posting {
  readonly docs: number[];
  readonly weights: number[];
}

type Properties = Readonly<Record<string, { readonly description?: unknown }>>;

/** The weighted counts of one tool's words. */
function bagOf(tool: ToolListing): { bag: Map<string, number>; length: number } {
  const bag = new Map<string, number>();
  let length = 0;
  const add = (text: unknown, weight: number) => {
    if (typeof text !== 'string') return;
    for (const word of wordsOf(text)) {
      bag.set(word, (bag.get(word) ?? 0) + weight);
      length += weight;
    }
  };
  add(tool.name, WEIGHTS.name);
  add(tool.title, WEIGHTS.title);
  add(tool.description, WEIGHTS.description);
  const properties = (tool.inputSchema as { properties?: Properties }).properties;
  if (isObjectLike(properties)) {
    for (const [name, property] of Object.entries(properties)) {
      add(name, WEIGHTS.param);
      add(property?.description, WEIGHTS.paramDescription);
    }
  }
  return { bag, length };
}

/** Most words of a query that are looked up; the rest are ignored. */
export const MAX_QUERY_WORDS = 64;

export class SearchIndex {
  private static readonly built = new WeakMap<readonly ToolListing[], SearchIndex>();
  private readonly postings = new Map<string, Posting>();
  private readonly lengths: Float64Array;
  private readonly averageLength: number;

  private constructor(private readonly tools: readonly ToolListing[]) {
    this.lengths = new Float64Array(tools.length);
    let total = 0;
    for (let doc = 0; doc < tools.length; doc++) {
      const { bag, length } = bagOf(tools[doc]);
      this.lengths[doc] = length;
      total += length;
      for (const [word, weight] of bag) {
        let posting = this.postings.get(word);
        if (!posting) this.postings.set(word, (posting = { docs: [], weights: [] }));
        posting.docs.push(doc);
        posting.weights.push(weight);
      }
    }
    this.averageLength = tools.length === 0 ? 1 : total / tools.length || 1;
  }

  /** The index of these listings: built on the first call, kept while the array lives. */
  static of(tools: readonly ToolListing[]): SearchIndex {
    let index = SearchIndex.built.get(tools);
    if (!index) SearchIndex.built.set(tools, (index = new SearchIndex(tools)));
    return index;
  }

  /** How many tools the index holds. */
  get size(): number {
    return this.tools.length;
  }

  /**
   * The names of the best `limit` tools for `query` among those `visible` holds, best first; ties in the order of
   * the listings. A tool that holds no word of the query is never returned.
   */
  search(query: string, limit: number, visible: (name: string) => boolean): string[] {
    const scores = new Float64Array(this.tools.length);
    const touched: number[] = [];
    const words = [...new Set(wordsOf(query))].slice(0, MAX_QUERY_WORDS);
    const n = this.tools.length;
    for (const word of words) {
      const posting = this.postings.get(word);
      if (!posting) continue;
      const df = posting.docs.length;
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      for (let i = 0; i < df; i++) {
        const doc = posting.docs[i];
        const tf = posting.weights[i];
        const norm = K1 * (1 - B + (B * this.lengths[doc]) / this.averageLength);
        if (scores[doc] === 0) touched.push(doc);
        scores[doc] += (idf * tf * (K1 + 1)) / (tf + norm);
      }
    }
    return this.best(touched, scores, limit, visible).map((doc) => this.tools[doc].name);
  }

  /** The best `limit` visible tools among `touched`, best first, ties in listing order: kept sorted as they come. */
  private best(touched: readonly number[], scores: Float64Array, limit: number, visible: (name: string) => boolean): number[] {
    const best: number[] = [];
    const before = (a: number, b: number) => scores[a] > scores[b] || (scores[a] === scores[b] && a < b);
    for (const doc of touched) {
      if (best.length === limit && !before(doc, best[limit - 1])) continue;
      if (!visible(this.tools[doc].name)) continue;
      let at = best.length;
      while (at > 0 && before(doc, best[at - 1])) at--;
      best.splice(at, 0, doc);
      if (best.length > limit) best.pop();
    }
    return best;
  }
}
