// Runs after `tsc -p tsconfig.build.json` (`npm run build`): turns the compiled modules under dist/ into one
// file per entry of the package, because a Node.js process that starts a stdio server pays for every module it
// resolves, reads and compiles, and ~90 small files cost measurably more than the same code in one
// (docs/benchmarks.md, docs/architecture.md).
//
//   dist/index.js          `onemodelcontext`: every runtime module once, each still evaluated only when first
//                          required (what our code requires lazily stays lazy); packages stay `require`s
//   dist/nest/index.js     `onemodelcontext/nest`  } their own modules only: what they use of ours they take
//   dist/redis/index.js    `onemodelcontext/redis` } from `require('../index.js')`, so a process has one copy
//                                                    of every class and registry whichever entries it loads
//   dist/cli/main.js       the command line (`bin`: generate, snapshot, manifest), its own process, sharing
//                          nothing with a server (it loads a project's server through the project's own copy)
//
// One file per entry rather than one file behind all three: an application bundled with esbuild follows every
// `require` of a file it includes, and a shared file would pull NestJS and ioredis into applications that use
// neither.
//
// Each entry ends with `0 && (module.exports = { ... })`, the names it exports, written from the compiled
// entry's real exports: Node.js's CommonJS lexer reads that line to offer named imports to ES modules
// (`import { McpServer } from 'onemodelcontext'`), whatever shape the bundled code takes. Type declarations
// (`*.d.ts`) are tsc's, untouched. tsc emits no source maps for the package (tsconfig.build.json), so neither
// does this.
import { build } from 'esbuild';
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = join(ROOT, 'dist');
const MAIN = 'index.js';
const ENTRIES = [MAIN, 'nest/index.js', 'redis/index.js'];
const CLI = 'cli/main.js';

/**
 * What a compiled entry exports, as CommonJS consumers see it (loaded here before it is replaced), and tsc's
 * `__esModule` marker, which the lexer also reports for tsc's output.
 */
function exportNames(file) {
  const exported = createRequire(import.meta.url)(join(DIST, file));
  return [...(exported.__esModule ? ['__esModule'] : []), ...Object.keys(exported).sort()];
}

/**
 * The package's own `package.json`, as the bundle carries it: the version only (telemetry names it as the
 * instrumentation scope's version). Bundled whole it would ship the scripts, the devDependencies and the rest.
 */
const versionOnly = {
  name: 'package-version-only',
  setup(build) {
    build.onLoad({ filter: /[\\/]package\.json$/ }, (args) => {
      const { version } = createRequire(import.meta.url)(args.path);
      return { contents: JSON.stringify({ version }), loader: 'json' };
    });
  },
};

/** Leaves the main entry, where another entry requires it, a `require` of the main entry's file. */
function mainEntryExternal(file) {
  const main = join(DIST, MAIN);
  return {
    name: 'main-entry-external',
    setup(build) {
      build.onResolve({ filter: /^\./ }, (args) => {
        const target = resolve(args.resolveDir, args.path);
        if (target !== main && `${target}.js` !== main) return undefined;
        const path = relative(dirname(join(DIST, file)), main).replace(/\\/g, '/');
        return { path: path.startsWith('.') ? path : `./${path}`, external: true };
      });
    },
  };
}

async function bundle(file, names) {
  const annotation =
    names && `// For Node.js's CommonJS lexer: the names ES modules can import.\n0 && (module.exports = { ${names.join(', ')} });`;
  const { outputFiles, metafile } = await build({
    entryPoints: [join(DIST, file)],
    outfile: join(DIST, file),
    allowOverwrite: true,
    // The comment before each bundled module names its compiled file relative to this: `// dist/server/http/entry/start.js`.
    absWorkingDir: ROOT,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    packages: 'external',
    plugins: file === MAIN ? [versionOnly] : [versionOnly, mainEntryExternal(file)],
    footer: annotation && { js: annotation },
    metafile: true,
    write: false,
    logLevel: 'warning',
  });
  return { file, outputFiles, inputs: Object.keys(metafile.inputs) };
}

/** A module in two bundles would be two copies at run time (two McpServer classes, two registries). */
function refuseSharedModules(bundles) {
  const owner = new Map();
  for (const { file, inputs } of bundles) {
    for (const input of inputs) {
      if (owner.has(input))
        throw new Error(`${input} is bundled into both dist/${owner.get(input)} and dist/${file}; import it through the main entry.`);
      owner.set(input, file);
    }
  }
}

/** Every compiled `.js` file under dist/ (declarations stay). */
function compiledModules(dir = DIST) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return compiledModules(path);
    return entry.name.endsWith('.js') ? [path] : [];
  });
}

const names = new Map(ENTRIES.map((file) => [file, exportNames(file)]));
const entries = await Promise.all(ENTRIES.map((file) => bundle(file, names.get(file))));
refuseSharedModules(entries);
const cli = await bundle(CLI);
for (const file of compiledModules()) rmSync(file);
for (const { outputFiles } of [...entries, cli]) for (const output of outputFiles) writeFileSync(output.path, output.contents);
