// postinstall, inside the onemodelcontext repository only: removes this sample's own copies of the packages it
// shares with `onemodelcontext`, so that Node.js finds the repository's copies instead.
//
// `file:../..` installs the package as a link, and Node.js resolves what a linked package requires from where the
// link points: onemodelcontext/nest takes @nestjs/core from the repository's node_modules. Nest's dependency
// injection and class-validator's metadata store need one copy of each, shared by the application and the
// library. Copied out of the repository (with `onemodelcontext` installed from the registry), this does nothing
// and the sample's own dependencies are the only copies.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const here = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..');
const root = join(here, '../..');
const SHARED = [
  '@nestjs/common',
  '@nestjs/core',
  '@nestjs/platform-express',
  'class-transformer',
  'class-validator',
  'reflect-metadata',
  'rxjs',
];

const manifest = join(root, 'package.json');
const inRepository = existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).name === 'onemodelcontext';
if (inRepository) {
  for (const name of SHARED) {
    if (existsSync(join(root, 'node_modules', name))) rmSync(join(here, 'node_modules', name), { recursive: true, force: true });
  }
}
