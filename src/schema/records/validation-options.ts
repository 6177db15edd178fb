/**
 * The validation options in force: the app's pipe is the judge. These are the options of class-validator (and
 * of Nest's `ValidationPipe`) that change what a DTO accepts; listing and reading both follow them, so that the
 * listed `inputSchema`, reading and class-validator under these options give the same verdict (the deliberate
 * differences aside, docs/listing-contract.md).
 */
export interface ValidationOptions {
  /** Properties without a class-validator rule are unknown: stripped, or refused with `forbidNonWhitelisted`. Default `true`. */
  readonly whitelist?: boolean;
  /** With `whitelist`, an unknown property is an argument error instead of being stripped. Default `true`. */
  readonly forbidNonWhitelisted?: boolean;
  /**
   * The pipe's `transform`. It does not change the verdict: the method always receives instances (the
   * library's reading builds them either way).
   */
  readonly transform?: boolean;
  /** A missing or `null` property skips every rule but `@IsDefined`: it may be left out, or sent as `null`. Default `false`. */
  readonly skipMissingProperties?: boolean;
  /** class-validator's `forbidUnknownValues`; Nest's default, and ours, is `false`. */
  readonly forbidUnknownValues?: boolean;
  /** Validation groups passed to class-validator for the rules it runs. */
  readonly groups?: readonly string[];
}

/** What reading does with a property a record does not know. */
export type UnknownProperties = 'refuse' | 'strip' | 'keep';

/** The options as reading and listing apply them; one frozen object per distinct meaning (`key`). */
export interface ValidationPolicy {
  /** Equal for policies that list and read alike: the key of the per-policy caches. */
  readonly key: string;
  readonly unknown: UnknownProperties;
  readonly skipMissing: boolean;
  readonly forbidUnknownValues: boolean;
  readonly groups?: readonly string[];
}

const policies = new Map<string, ValidationPolicy>();

/**
 * The policy of some options. Without options, `{ whitelist: true, forbidNonWhitelisted: true }`: records are
 * closed objects (`additionalProperties: false`), as they always were.
 */
export function policyOf(options: ValidationOptions | undefined): ValidationPolicy {
  const whitelist = options?.whitelist ?? true;
  const forbid = options?.forbidNonWhitelisted ?? options?.whitelist === undefined;
  const unknown: UnknownProperties = !whitelist ? 'keep' : forbid ? 'refuse' : 'strip';
  const skipMissing = options?.skipMissingProperties === true;
  const forbidUnknownValues = options?.forbidUnknownValues === true;
  const groups = options?.groups && options.groups.length > 0 ? Object.freeze([...options.groups]) : undefined;
  const key = `${unknown}${skipMissing ? '+skip' : ''}${forbidUnknownValues ? '+unknown' : ''}${groups ? `+${JSON.stringify(groups)}` : ''}`;
  let policy = policies.get(key);
  if (!policy) {
    policy = Object.freeze({ key, unknown, skipMissing, forbidUnknownValues, groups });
    policies.set(key, policy);
  }
  return policy;
}

/** The default policy: closed records, every property checked. */
export const CLOSED: ValidationPolicy = policyOf(undefined);
