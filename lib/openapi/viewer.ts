import fs from 'node:fs/promises';
import path from 'node:path';

// GET /docs: the API reference rendered by Redoc from /openapi.json, its script served by this
// service from the installed package (no CDN, no web fonts: it works offline).

let bundle: Promise<Buffer> | undefined;

// The one address the bundle fetches from elsewhere: the logo beside "API docs by Redocly", which
// hides itself when it fails to load. Pointed at nothing, it is never asked for.
const CDN_LOGO = 'https://cdn.redoc.ly/redoc/logo-mini.svg';

async function readBundle(): Promise<Buffer> {
  const source = await fs.readFile(path.join(process.cwd(), 'node_modules', 'redoc', 'bundles', 'redoc.standalone.js'), 'utf8');
  return Buffer.from(source.replaceAll(CDN_LOGO, 'data:,'));
}

/** Redoc's standalone bundle, read once from node_modules (the server runs from the project's root). */
export function redocBundle(): Promise<Buffer> {
  bundle ??= readBundle().catch((error: unknown) => {
    bundle = undefined;
    throw error;
  });
  return bundle;
}

export const REFERENCE_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Vitrine API reference</title>
<style>body { margin: 0; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }</style>
</head>
<body>
<main id="reference"></main>
<script src="/docs/redoc.standalone.js"></script>
<script>
Redoc.init('/openapi.json', {
  hideDownloadButton: false,
  expandResponses: '200,204',
  theme: { typography: { fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif', headings: { fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif' } } },
}, document.getElementById('reference'));
</script>
</body>
</html>
`;
