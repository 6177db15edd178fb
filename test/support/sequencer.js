// The order the test files start in. Jest starts the slowest first when it knows their times from an
// earlier run; in a fresh clone it knows none (they are kept per clone) and orders by file size, which started
// the two-minute install-bound files last, behind a hundred quick ones. These files are named here so that
// they start first in every run, the rest following in Jest's own order.
const { default: Sequencer } = require('@jest/test-sequencer');

/** The slowest files, slowest first (their times are printed by .ci/run). */
const SLOWEST = [
  'test/e2e/newcomer.test.ts',
  'test/e2e/init.test.ts',
  'test/e2e/dev-loop.test.ts',
  'test/e2e/compilers.test.ts',
  'test/e2e/cluster.test.ts',
  'test/generate/compilers.test.ts',
  'test/e2e/runners.test.ts',
  'test/invoke/differential.test.ts',
  'test/e2e/chaos.test.ts',
  'test/e2e/nest11.test.ts',
  'test/profiles/differential.test.ts',
  'test/frameworks/openai-agents-stdio.test.ts',
  'test/docs/docs.test.ts',
  'test/server/http/log-flood.test.ts',
];

class SlowestFirst extends Sequencer {
  sort(tests) {
    const sorted = super.sort(tests);
    // A file of a project other than the default one (no-codegen) keeps Jest's place for it.
    const rank = (test) => {
      const at = SLOWEST.findIndex((file) => test.path.endsWith(`/${file}`));
      return at === -1 || test.context.config.displayName?.name !== 'default' ? SLOWEST.length : at;
    };
    return sorted
      .map((test, index) => [rank(test), index, test])
      .sort((a, b) => a[0] - b[0] || a[1] - b[1])
      .map(([, , test]) => test);
  }
}

module.exports = SlowestFirst;
