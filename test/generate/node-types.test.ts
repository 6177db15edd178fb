import { reachableNamesOf, UsedNames } from '../../src/generate/project';

/** Issue 35, item 9: a cold run reads only the files of @types/node that declare a name the project uses. */

const buffer = `/// <reference path="globals.d.ts" />
declare module "buffer" {
    export function isUtf8(input: Buffer): boolean;
    global {
        interface Buffer extends Uint8Array { readonly kind: { inner: string } }
        var Buffer: BufferConstructor;
        namespace NodeJS { interface Inner {} }
    }
}
declare module "node:buffer" { export * from "buffer"; }
// declare module "commented" {}
`;

describe('reachableNamesOf', () => {
  it('names the globals and ambient modules of a declaration file, not the members of a module or namespace', () => {
    expect([...reachableNamesOf(buffer)].sort()).toEqual(['Buffer', 'NodeJS', 'buffer', 'node:buffer']);
  });

  it('names the top-level declarations of a script, none of a module file', () => {
    expect([...reachableNamesOf('declare var process: Process;\ninterface Process { env: {} }\n')].sort()).toEqual(['Process', 'process']);
    expect([...reachableNamesOf('export declare function join(a: string): string;\n')]).toEqual([]);
  });
});

describe('UsedNames', () => {
  it('keeps a file declaring a name or a module the sources mention, and one that declares nothing of its own', () => {
    const used = new UsedNames();
    used.add("import { readFileSync } from 'node:fs';\nexport class A { at(b: Buffer): void {} }\n");
    expect(used.unneeded(buffer)).toBe(false);
    expect(used.unneeded('declare module "node:fs" { export function readFileSync(): string; }')).toBe(false);
    expect(used.unneeded('/// <reference path="buffer.d.ts" />\n')).toBe(false);
    expect(used.unneeded('declare module "zlib" { export function gzip(): void; }\ninterface Other {}')).toBe(true);
  });
});
