import { INVALID, newFailure } from '../../../src/invoke/reading/failure';
import { interpretedReader, recordReaderSource, type PropertyStep, type RecordPlan } from '../../../src/invoke/reading/record-reader';

const text: PropertyStep['read'] = (v, f) => (typeof v === 'string' ? v : ((f.expected = 'Expected a string.'), INVALID));

function plan(steps: Partial<PropertyStep>[]): RecordPlan {
  return {
    steps: steps.map((s) => ({ name: 'n', key: 'n', read: text, required: true, transforms: [], ...s })),
    construct: () => ({}),
    unknown: 'refuse',
  };
}

describe('the record reader source', () => {
  it('is a pure, printable function of the plan', () => {
    const source = recordReaderSource(
      plan([
        { name: 'full_name', key: 'fullName' },
        { name: 'note', key: 'note', required: false, fallback: () => '' },
      ]),
    );
    expect(source).toBe(
      [
        'if (typeof v !== "object" || v === null || Array.isArray(v)) return notObject(v, f);',
        'const out = plan.construct();',
        'let matched = 0, x;',
        'x = v["full_name"];',
        'if (x !== undefined) { matched++; x = plan.steps[0].read(x, f); if (x === INVALID) return plan.collect(v, f); out["fullName"] = x; } else { return plan.collect(v, f); }',
        'x = v["note"];',
        'if (x !== undefined) { matched++; x = plan.steps[1].read(x, f); if (x === INVALID) return plan.collect(v, f); out["note"] = x; } else { out["note"] = plan.steps[1].fallback(); }',
        'if (!onlyKnown(v, matched)) return plan.collect(v, f);',
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
    expect(recordReaderSource(plan([{ name: 'constructor', key: 'constructor' }]))).toContain(
      'x = hasOwn.call(v, "constructor") ? v["constructor"] : undefined;',
    );
  });
});

describe('the interpreted reader', () => {
  const read = interpretedReader(
    plan([
      { name: 'a_b', key: 'ab' },
      { name: 'constructor', key: 'ctor', required: false },
    ]),
  );

  it('reads a record as the generated one does', () => {
    expect(read({ a_b: 'x' }, newFailure())).toEqual({ ab: 'x' });
  });

  it('names every invalid, missing and unknown property', () => {
    const f = newFailure();
    expect(read({ constructor: 1, z: 1, y: 2 }, f)).toBe(INVALID);
    expect([f.path.join('.'), f.expected, ...(f.others ?? []).map((o) => `${o.path.join('.')}: ${o.expected}`)]).toEqual([
      'a_b',
      'It is required.',
      'constructor: Expected a string.',
      'z: There is no such property.',
      'y: There is no such property.',
    ]);
  });

  it('names the first invalid, missing or unknown property first', () => {
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
