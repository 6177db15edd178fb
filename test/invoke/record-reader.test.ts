import { INVALID, newFailure } from '../../src/invoke/failure';
import { interpretedReader, recordReaderSource, type PropertyStep, type RecordPlan } from '../../src/invoke/record-reader';

const text: PropertyStep['read'] = (v, f) => (typeof v === 'string' ? v : ((f.expected = 'Expected a string.'), INVALID));

function plan(steps: Partial<PropertyStep>[]): RecordPlan {
  return {
    steps: steps.map((s) => ({ name: 'n', key: 'n', read: text, required: true, transforms: [], ...s })),
    construct: () => ({}),
  };
}

describe('the record reader source', () => {
  it('is a pure, printable function of the plan', () => {
    const source = recordReaderSource(plan([{ name: 'full_name', key: 'fullName' }, { name: 'note', key: 'note', required: false, fallback: () => '' }]));
    expect(source).toBe(
      [
        'if (typeof v !== "object" || v === null || Array.isArray(v)) return notObject(v, f);',
        'const out = plan.construct();',
        'let matched = 0, x;',
        'x = v["full_name"];',
        'if (x !== undefined) { matched++; x = plan.steps[0].read(x, f); if (x === INVALID) { f.path.push("full_name"); return INVALID; } out["fullName"] = x; } else { f.path.push("full_name"); return fail(f, "It is required."); }',
        'x = v["note"];',
        'if (x !== undefined) { matched++; x = plan.steps[1].read(x, f); if (x === INVALID) { f.path.push("note"); return INVALID; } out["note"] = x; } else { out["note"] = plan.steps[1].fallback(); }',
        'if (!onlyKnown(v, matched)) return unknownKey(v, plan.steps, f);',
        'return out;',
      ].join('\n'),
    );
  });

  it('embeds names only as JSON string literals, so no name can close the literal', () => {
    const hostile = '"]; throw new Error("injected"); //\u2028';
    const source = recordReaderSource(plan([{ name: hostile, key: hostile }]));
    expect(source).toContain(`x = v[${JSON.stringify(hostile)}];`);
    expect(source).not.toContain('throw new Error("injected")');
  });

  it('reads names Object.prototype also has only when they are own', () => {
    expect(recordReaderSource(plan([{ name: 'constructor', key: 'constructor' }]))).toContain('x = hasOwn.call(v, "constructor") ? v["constructor"] : undefined;');
  });
});

describe('the interpreted reader', () => {
  const read = interpretedReader(plan([{ name: 'a_b', key: 'ab' }, { name: 'constructor', key: 'ctor', required: false }]));

  it('reads a record as the generated one does', () => {
    expect(read({ a_b: 'x' }, newFailure())).toEqual({ ab: 'x' });
  });

  it('names the first invalid, missing or unknown property', () => {
    const cases: [unknown, string, string][] = [
      [{ a_b: 1 }, 'a_b', 'Expected a string.'],
      [{}, 'a_b', 'It is required.'],
      [{ a_b: 'x', z: 1 }, 'z', 'There is no such property.'],
      [[], '', 'Expected an object, got an array.'],
    ];
    for (const [value, path, expected] of cases) {
      const f = newFailure();
      expect(read(value, f)).toBe(INVALID);
      expect([f.path.join('.'), f.expected]).toEqual([path, expected]);
    }
  });
});
