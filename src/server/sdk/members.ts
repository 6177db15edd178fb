/**
 * Every private SDK member this library uses, and where it lives. The SDK is pinned to an exact version, but a
 * release may still rename or move any of them: {@link missingMembers} looks each one up on real SDK objects, so a
 * server that finds one missing can switch its fast paths off and serve through the SDK's public path instead
 * (seam.ts), and the canary test names each member against the installed SDK.
 */
import { isObjectLike } from '../../objects';

/** What a member must be for the seam to use it. */
export type MemberShape = 'function' | 'map' | 'array' | 'field' | 'object';

/** The objects a member is looked up on: a fresh SDK `Server`, and (for the HTTP members) a fresh session transport. */
export interface Probe {
  readonly server: object;
  readonly transport?: object;
}

export interface SdkMember {
  /** The member's name, as the warning and docs/architecture.md name it. */
  readonly name: string;
  /** What it must be. */
  readonly shape: MemberShape;
  /** Which part of the seam uses it. */
  readonly usedBy: 'hot path' | 'modern pool' | 'legacy posts' | 'server hooks';
  /** `true` when only an HTTP session transport holds it (looked up once an HTTP endpoint starts). */
  readonly http?: boolean;
  /** The member's value on the probe objects (`undefined` when absent). */
  readonly read: (probe: Probe) => unknown;
  /** Whether the member is on the probe at all (a field the SDK declares may hold `undefined`). */
  readonly present?: (probe: Probe) => boolean;
}

const field = (probe: Probe, name: string): unknown => (probe.server as Record<string, unknown>)[name];
const has = (probe: Probe, name: string): boolean => name in probe.server;

/** The SDK session transport's inner web-standard transport. */
const webTransportOf = (probe: Probe): unknown => (probe.transport as Record<string, unknown> | undefined)?._webStandardTransport;

export const SDK_MEMBERS: readonly SdkMember[] = [
  { name: 'Protocol._wrapHandler', shape: 'function', usedBy: 'server hooks', read: (p) => field(p, '_wrapHandler') },
  { name: 'Protocol._onclose', shape: 'function', usedBy: 'server hooks', read: (p) => field(p, '_onclose') },
  { name: 'Protocol._wireCodec', shape: 'function', usedBy: 'hot path', read: (p) => field(p, '_wireCodec') },
  { name: 'Server._outboundServerInfo', shape: 'function', usedBy: 'hot path', read: (p) => field(p, '_outboundServerInfo') },
  { name: 'Server._oninitialize', shape: 'function', usedBy: 'hot path', read: (p) => field(p, '_oninitialize') },
  { name: 'Server._loggingLevels', shape: 'map', usedBy: 'hot path', read: (p) => field(p, '_loggingLevels') },
  { name: 'Server.LOG_LEVEL_SEVERITY', shape: 'map', usedBy: 'hot path', read: (p) => field(p, 'LOG_LEVEL_SEVERITY') },
  {
    name: 'Protocol._supportedProtocolVersions',
    shape: 'array',
    usedBy: 'modern pool',
    read: (p) => field(p, '_supportedProtocolVersions'),
  },
  {
    name: 'Protocol._negotiatedProtocolVersion',
    shape: 'field',
    usedBy: 'modern pool',
    read: (p) => field(p, '_negotiatedProtocolVersion'),
    present: (p) => has(p, '_negotiatedProtocolVersion'),
  },
  {
    name: 'NodeStreamableHTTPServerTransport._webStandardTransport',
    shape: 'object',
    usedBy: 'legacy posts',
    http: true,
    read: webTransportOf,
  },
  {
    name: 'WebStandardStreamableHTTPServerTransport._requestToStreamMapping',
    shape: 'map',
    usedBy: 'legacy posts',
    http: true,
    read: (p) => (webTransportOf(p) as Record<string, unknown> | undefined)?._requestToStreamMapping,
  },
];

function hasShape(value: unknown, shape: MemberShape): boolean {
  switch (shape) {
    case 'function':
      return typeof value === 'function';
    case 'map':
      return value instanceof Map;
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isObjectLike(value);
    case 'field':
      return value === undefined || typeof value === 'string';
  }
}

/** Whether `member` is on `probe` with the shape the seam expects. */
export function memberFound(member: SdkMember, probe: Probe): boolean {
  if (member.present && !member.present(probe)) return false;
  return hasShape(member.read(probe), member.shape);
}

/**
 * The names of the members that the probe's SDK objects lack or hold in another shape; the HTTP members only when
 * the probe has a session transport (the HTTP room makes one, so a stdio server never loads the SDK's Node package).
 */
export function missingMembers(probe: Probe): string[] {
  const http = probe.transport !== undefined;
  return SDK_MEMBERS.filter((m) => (http || !m.http) && !memberFound(m, probe)).map((m) => m.name);
}
