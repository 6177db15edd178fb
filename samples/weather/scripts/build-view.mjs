// Builds the MCP Apps view: view/weather-view.ts and the extension's App class it imports, bundled by esbuild into
// one script inlined in dist/view.html. A host loads the view from resources/read as a single document in a
// sandboxed iframe, which may fetch nothing (no resourceDomains are declared), so everything must be inline.
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));

const { outputFiles } = await build({
  entryPoints: [here('../view/weather-view.ts')],
  bundle: true,
  format: 'iife',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  write: false,
  legalComments: 'none',
});
// A `</script` inside the bundle would end the inline script early.
const script = outputFiles[0].text.replace(/<\/script/gi, '<\\/script');

const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Weather</title>
<style>
  :root { color-scheme: light dark; font-family: var(--font-sans, system-ui, sans-serif); }
  body { margin: 0; padding: 12px 16px; background: var(--color-background-primary, Canvas); color: var(--color-text-primary, CanvasText); }
  #weather { font-size: 1.25rem; }
  #weather[data-state="error"], #weather[data-state="cancelled"] { color: var(--color-text-secondary, GrayText); }
</style>
</head>
<body>
<main id="weather" data-state="waiting">Waiting for the tool result...</main>
<script>${script}</script>
</body>
</html>
`;
mkdirSync(here('../dist'), { recursive: true });
writeFileSync(here('../dist/view.html'), html);
