// npm run bench: runs every compiled bench/*.bench.ts (tsc output in dist-bench/bench), one process each.
const { readdirSync } = require('node:fs');
const { join } = require('node:path');
const { spawnSync } = require('node:child_process');

const dir = join(__dirname, '..', 'dist-bench', 'bench');
const files = readdirSync(dir).filter((f) => f.endsWith('.bench.js')).sort();
let failed = 0;
for (const file of files) {
  console.log(`\n# ${file.replace(/\.js$/, '.ts')}`);
  const run = spawnSync(process.execPath, [join(dir, file)], { stdio: 'inherit' });
  if (run.status !== 0) failed++;
}
process.exit(failed === 0 ? 0 : 1);
