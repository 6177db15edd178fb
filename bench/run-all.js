// npm run bench: runs every compiled bench/*.bench.ts (tsc output in dist-bench/bench), one process each, then
// prints the goals they measured side by side. `npm run bench -- http startup` runs only the files whose
// names contain one of the words.
const { mkdtempSync, readFileSync, readdirSync, rmSync, existsSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { spawnSync } = require('node:child_process');

const dir = join(__dirname, '..', 'dist-bench', 'bench');
const only = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.js'))
  .filter((f) => only.length === 0 || only.some((word) => f.includes(word)))
  .sort();
const scratch = mkdtempSync(join(tmpdir(), 'omc-bench-'));
const goals = join(scratch, 'goals.jsonl');
let failed = 0;
for (const file of files) {
  console.log(`\n# ${file.replace(/\.js$/, '.ts')}`);
  const run = spawnSync(process.execPath, [join(dir, file)], { stdio: 'inherit', env: { ...process.env, BENCH_GOALS: goals } });
  if (run.status !== 0) failed++;
}

function verdict(row) {
  if (row.goal === undefined) return 'for information';
  const direction = row.direction ?? 'at least';
  const met = direction === 'at least' ? row.ratio >= row.goal : row.ratio <= row.goal;
  const goal = row.goal >= 1 || !Number.isInteger(1 / row.goal) ? `${row.goal}x` : `1/${Math.round(1 / row.goal)}x`;
  return `${direction} ${goal}${row.vs === 'floor' ? ' the floor' : ''}: ${met ? 'met' : 'NOT MET'}`;
}

if (existsSync(goals)) {
  const rows = readFileSync(goals, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  console.log('\n# Goals, side by side (ours | baseline: McpServer + zod 4 unless the measure names another | floor | ratio | goal)');
  for (const row of rows) {
    console.log(`- ${row.measure}\n    ${row.ours} | ${row.baseline} | ${row.floor ?? '-'} | ${row.ratio.toFixed(2)}x | ${verdict(row)}`);
  }
}
rmSync(scratch, { recursive: true, force: true });
process.exit(failed === 0 ? 0 : 1);
