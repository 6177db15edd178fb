/**
 * The options of one command, read from its arguments: flags (`--check`), options with a value (`--out file`),
 * and `--help`/`-h`, which every command takes. Anything else is refused with the word that was not understood.
 */

/** What a command takes: its flags and its options with a value, each by every spelling. */
export interface OptionSpec {
  readonly flags: readonly string[];
  readonly valued: readonly string[];
}

/** The read arguments: each given flag and option by its spelling, or the one that was not understood. */
export type ReadArgs =
  | { readonly help: true }
  | { readonly help: false; readonly flags: ReadonlySet<string>; readonly values: ReadonlyMap<string, string> }
  | { readonly refused: string };

export function readArgs(args: readonly string[], spec: OptionSpec): ReadArgs {
  const flags = new Set<string>();
  const values = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--help' || arg === '-h') return { help: true };
    if (spec.flags.includes(arg)) flags.add(arg);
    // A value never starts with '-': `--out --check` is a missing value, not a file named '--check'.
    else if (spec.valued.includes(arg) && args[i + 1] !== undefined && !args[i + 1].startsWith('-')) values.set(arg, args[++i]);
    else return { refused: arg };
  }
  return { help: false, flags, values };
}
