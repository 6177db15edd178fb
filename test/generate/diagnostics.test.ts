import { run, type Run } from '../support/generate';

/** One run over the fixture, shared by every assertion below: the project is compiled once. */
let result: Run;
beforeAll(() => {
  result = run('diagnostics', ['generate']);
});

const expected: [string, string][] = [
  ['OMCG0010', 'src/generic.ts:3:14 - OMCG0010 GenericTools is generic'],
  ['OMCG0004', 'src/generic.ts:10:11 - OMCG0004 GenericMethod.echo is generic'],
  ['OMCG0005', 'src/problems.ts:7:14 - OMCG0005 Empty has no properties'],
  ['OMCG0006', 'src/problems.ts:10:3 - OMCG0006 TreeNode refers to itself (TreeNode -> TreeNode)'],
  ['OMCG0001', 'src/problems.ts:18:18 - OMCG0001 @Tool is on a static member (Shapes.make)'],
  ['OMCG0001', 'src/problems.ts:19:15 - OMCG0001 @Tool is on a getter or setter (Shapes.size)'],
  ['OMCG0002', "src/problems.ts:25:20 - OMCG0002 Types.anything, parameter 'v': `any` has no schema."],
  ['OMCG0002', "src/problems.ts:26:17 - OMCG0002 Types.shape, parameter 'v': Shape has no schema"],
  ['OMCG0002', "src/problems.ts:27:18 - OMCG0002 Types.either, parameter 'v': the union string | number has no schema."],
  ['OMCG0005', "src/problems.ts:28:20 - OMCG0005 Types.anyArray, parameter 'v': the element type has no schema"],
  ['OMCG0003', 'src/problems.ts:31:23 - OMCG0003 Types.callback returns () => void, which cannot be sent'],
  ['OMCG0002', "src/problems.ts:35:18 - OMCG0002 the prompt parameter 'topics' of Types.list is not text-like"],
  ['OMCG0007', "src/problems.ts:42:17 - OMCG0007 Names.second and Names.first are both named 'same'."],
  ['OMCG0008', "src/problems.ts:43:23 - OMCG0008 the tool name 'not valid!' of Names.third is not valid"],
  ['OMCG0007', "src/problems.ts:44:51 - OMCG0007 Names.pair has two parameters named 'x'"],
  ['OMCG0008', 'src/problems.ts:45:24 - OMCG0008 a parameter of Names.destructured has no name that can be read'],
  ['OMCG0009', 'src/problems.ts:46:43 - OMCG0009 Names.contexts has more than one RequestContext parameter'],
  ['OMCG0012', "src/problems.ts:48:23 - OMCG0012 uiResource 'https://example.com/view' of Names.view is not a ui:// URI."],
  ['OMCG0012', "src/problems.ts:48:65 - OMCG0012 uiVisibility of Names.view holds 'everyone'"],
];

describe('compile-time diagnostics of onemodelcontext generate (issue 6)', () => {
  it('exits non-zero and writes the facts of the only class without problems (issue 35)', () => {
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    const text = result.written.get('src/onemodelcontext.facts.ts') ?? '';
    expect(text.match(/^registerSourceFacts\(.*$/gm)).toEqual(["registerSourceFacts('Hidden', {"]);
  });

  it('prints one line per problem, in file and position order, then the count', () => {
    const lines = result.stderr.split('\n');
    expect(lines).toHaveLength(expected.length + 1);
    expected.forEach(([, start], i) => expect(lines[i].startsWith(start)).toBe(true));
    expect(lines[expected.length]).toBe(
      'Found 19 errors. Wrote src/onemodelcontext.facts.ts: facts of 1 class (7 left out: see the errors above).',
    );
  });

  it.each(expected)('reports %s at its location: %s', (_code, start) => {
    expect(result.stderr.split('\n').filter((line) => line.startsWith(start))).toHaveLength(1);
  });

  it('reports nothing for a member whose explicit hint covers a type without schema', () => {
    expect(result.stderr).not.toContain('Types.hinted');
  });
});
