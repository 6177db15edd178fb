// `npm run dev`: run under `tsx watch`, which restarts this script when a file it imports changes. Each
// start regenerates the facts module first (written only when the facts changed, so an unchanged module
// does not restart it again), then serves src/main.ts with no build step: tsx emits no decorator
// metadata, and the facts module gives the library every type.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const cli = fileURLToPath(new URL('../node_modules/onemodelcontext/dist/cli/main.js', import.meta.url));
const generated = spawnSync(process.execPath, [cli, 'generate'], { stdio: ['ignore', 'inherit', 'inherit'] });
if (generated.status !== 0) {
  console.error('onemodelcontext generate failed: fix the sources above; the server restarts on the next change.');
} else {
  await import('../src/main.ts');
}
