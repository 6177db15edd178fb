import * as path from 'node:path';
import { mcpbManifest, registryServerJson, type ArtefactOptions } from './artefacts';
import type { CommandContext } from './command';

/** `onemodelcontext manifest --registry | --mcpb | --card`: one publishing artefact, printed or written to `--out`. */

export const MANIFEST_USAGE = `Usage: onemodelcontext manifest --registry | --mcpb | --card [--entry module] [--out file] [--name name] [--url url] [--entry-point file]

Writes a publishing artefact from package.json and the project's server, to stdout or to --out:

  --registry     server.json for the MCP Registry (name, description, version, the npm package, --url as a remote)
  --mcpb         manifest.json of an MCP Bundle (the node server, its tools)
  --card         the server card (what serveHttp({ serverCard }) serves at /.well-known/mcp/server-card.json)
  --entry        the module that builds and exports the server (default: "main" of package.json); it must not serve
  --out          the file to write (default: print to stdout)
  --name         the reverse-DNS name, such as io.github.you/weather (default: "mcpName" of package.json)
  --url          the public URL of the Streamable HTTP endpoint, listed as a remote
  --entry-point  the bundle's file that serves over stdio (default: the first "bin", else "main")`;

export const MANIFEST_OPTIONS = {
  flags: ['--registry', '--mcpb', '--card'],
  valued: ['--entry', '--out', '--name', '--url', '--entry-point'],
};

const KINDS = ['--registry', '--mcpb', '--card'];

export async function manifest(context: CommandContext): Promise<number> {
  const { host, values, flags } = context;
  const kinds = KINDS.filter((kind) => flags.has(kind));
  if (kinds.length !== 1) {
    host.stderr(`Give one of --registry, --mcpb or --card${kinds.length > 1 ? `, not ${kinds.join(' and ')}` : ''}.\n${MANIFEST_USAGE}`);
    return 1;
  }
  const options: ArtefactOptions = { name: values.get('--name'), url: values.get('--url'), entryPoint: values.get('--entry-point') };
  const artefact = await artefactOf(kinds[0], context, options);
  const text = `${JSON.stringify(artefact, null, 2)}\n`;
  const out = values.get('--out');
  if (out === undefined) {
    host.stdout(text.trimEnd());
    return 0;
  }
  const file = path.resolve(host.cwd, out);
  host.writeFile(file, text);
  host.stdout(`Wrote ${path.relative(host.cwd, file) || file}.`);
  return 0;
}

async function artefactOf(kind: string, context: CommandContext, options: ArtefactOptions): Promise<Record<string, unknown>> {
  const pkg = context.packageJson;
  if (kind === '--registry') return registryServerJson(pkg, options);
  const server = await context.server();
  if (kind === '--mcpb') return mcpbManifest(pkg, server, options);
  const name = options.name ?? (typeof pkg.mcpName === 'string' ? pkg.mcpName : undefined);
  const description = typeof pkg.description === 'string' ? pkg.description : undefined;
  const websiteUrl = typeof pkg.homepage === 'string' ? pkg.homepage : undefined;
  return server.serverCard({ name, description, url: options.url, websiteUrl });
}
