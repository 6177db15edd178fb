/**
 * `onemodelcontext/nest` runs inside a NestJS application, whose packages are optional peer dependencies of
 * this library: without them, importing it says what to install instead of a `Cannot find module` stack.
 */
import { UsageError } from '../index';
const PEERS = ['@nestjs/common', '@nestjs/core', 'rxjs'] as const;

function isInstalled(name: string): boolean {
  try {
    require.resolve(name);
    return true;
  } catch {
    return false;
  }
}

const missing = PEERS.filter((name) => !isInstalled(name));
if (missing.length > 0) {
  throw new UsageError(
    `onemodelcontext/nest needs NestJS, but ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not installed: run npm install ${PEERS.join(' ')}.`,
  );
}
