// Just enough MIME to read what nodemailer writes: folded headers, RFC 2047 words,
// multipart/alternative, quoted-printable and base64 parts.
function decodeWords(value: string): string {
  return value
    .replace(/(\?=)\s+(=\?)/g, '$1$2')
    .replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_, _charset: string, encoding: string, text: string) =>
      encoding.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : Buffer.from(text.replace(/_/g, ' ').replace(/=([0-9A-Fa-f]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1').toString('utf8'),
    );
}

function splitEntity(raw: string) {
  const end = raw.indexOf('\r\n\r\n');
  const headers = new Map<string, string>();
  for (const line of raw.slice(0, end).replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body: raw.slice(end + 4) };
}

function decodeBody(headers: Map<string, string>, body: string): string {
  const encoding = (headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  const bytes =
    encoding === 'base64'
      ? Buffer.from(body.replace(/\s+/g, ''), 'base64')
      : encoding === 'quoted-printable'
        ? Buffer.from(body.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1')
        : Buffer.from(body, 'utf8');
  return bytes.toString('utf8').replace(/\r\n/g, '\n').replace(/\n$/, '');
}

/** A captured message's sender, recipient, subject and its text and HTML parts, decoded. */
export function readMail(raw: string) {
  const { headers, body } = splitEntity(raw);
  const parts: Record<string, string> = {};
  const boundary = /boundary="?([^";]+)"?/.exec(headers.get('content-type') ?? '')?.[1];
  if (boundary) {
    for (const chunk of body.split(`--${boundary}`).slice(1, -1)) {
      const part = splitEntity(chunk.replace(/^\r\n/, ''));
      parts[(part.headers.get('content-type') ?? '').split(';')[0]] = decodeBody(part.headers, part.body.replace(/\r\n$/, ''));
    }
  } else {
    parts[(headers.get('content-type') ?? 'text/plain').split(';')[0]] = decodeBody(headers, body);
  }
  return {
    from: decodeWords(headers.get('from') ?? ''),
    to: decodeWords(headers.get('to') ?? ''),
    subject: decodeWords(headers.get('subject') ?? ''),
    text: parts['text/plain'],
    html: parts['text/html'],
  };
}
