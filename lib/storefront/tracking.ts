// CONTRACT §3: tracking parameters are added with a URL parser, never by string concatenation.
// The existing query is kept as written (a `+` keeps meaning a space, `%2B` a plus), the fragment
// survives, and parameters of the same name are replaced.

const BASE = 'http://vitrine.invalid';

export function withTracking(url: string, params: Record<string, string>): string {
  let parsed: URL;
  try {
    parsed = new URL(url, BASE);
  } catch {
    return url;
  }
  const names = new Set(Object.keys(params));
  const kept = parsed.search
    .slice(1)
    .split('&')
    .filter((pair) => pair !== '' && !names.has(decodeURIComponentSafe(pair.split('=')[0])));
  const added = Object.entries(params).map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`);
  parsed.search = `?${[...kept, ...added].join('&')}`;
  // A link without a scheme keeps its own form: a relative path as written (`p/1.html` is not
  // `/p/1.html`), a scheme-relative one without the scheme the parser gave it.
  if (parsed.origin === BASE) return `${url.split(/[?#]/, 1)[0]}${parsed.search}${parsed.hash}`;
  return url.startsWith('//') ? parsed.href.slice(parsed.protocol.length) : parsed.href;
}

/** The link without its scheme and host: path, query and fragment. */
export function handleOf(url: string): string {
  try {
    const parsed = new URL(url, BASE);
    return `${parsed.pathname}${parsed.search}${parsed.hash}`;
  } catch {
    return url;
  }
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}
