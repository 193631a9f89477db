import type dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { lookupLimiter } from './dns-lookup';

/** A target we will not contact: private, loopback, link-local, multicast or reserved. */
export class OutboundRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OutboundRefused';
  }
}

const blocked = new net.BlockList();
for (const [address, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  // The deprecated 6to4 relay anycast.
  ['192.88.99.0', 24],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(address, prefix, 'ipv4');
}
for (const [address, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['2001:db8::', 32],
  ['64:ff9b::', 96],
  // 6to4, which embeds an IPv4 address; deprecated, nothing legitimate to reach there.
  ['2002::', 16],
  // Teredo (embeds an IPv4 address), local-use NAT64, deprecated site-local, discard-only.
  ['2001::', 32],
  ['64:ff9b:1::', 48],
  ['fec0::', 10],
  ['100::', 64],
] as const) {
  blocked.addSubnet(address, prefix, 'ipv6');
}

/** The eight 16-bit groups of an IPv6 address (a dotted IPv4 tail counts as two). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number);
    text = text.slice(0, v4.index) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const parse = (part: string | undefined) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const front = parse(head);
  const back = parse(tail);
  return tail === undefined ? front : [...front, ...Array(8 - front.length - back.length).fill(0), ...back];
}

export function isPublicAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 0) return false;
  if (family === 6) {
    const g = ipv6Groups(address);
    // IPv4 inside IPv6 (mapped ::ffff:a.b.c.d, compatible ::a.b.c.d, translated ::ffff:0:a.b.c.d)
    // is judged by the IPv4 address it carries.
    const prefixZero = g.slice(0, 5).every((x) => x === 0);
    if ((prefixZero && (g[5] === 0xffff || (g[5] === 0 && (g[6] !== 0 || g[7] > 1)))) || (g.slice(0, 4).every((x) => x === 0) && g[4] === 0xffff && g[5] === 0)) {
      const v4 = `${g[6] >> 8}.${g[6] & 255}.${g[7] >> 8}.${g[7] & 255}`;
      return isPublicAddress(v4);
    }
    return !blocked.check(address, 'ipv6');
  }
  return !blocked.check(address, 'ipv4');
}

/**
 * `allowHosts` may be reached although private, on any port; other hosts on 80 and 443 only, and
 * `allowPorts`. `dnsTimeoutMs`: how long a name may take to resolve.
 */
export type OutboundPolicy = { allowHosts: string[]; timeoutMs: number; allowPorts?: number[]; dnsTimeoutMs?: number };

const STANDARD_PORTS = [80, 443];
const DNS_TIMEOUT_MS = 5_000;

function allowed(hostname: string, policy: OutboundPolicy) {
  return policy.allowHosts.includes(hostname.toLowerCase().replace(/^\[|\]$/g, ''));
}

/**
 * The address check runs inside the socket's own DNS lookup, so the address we check is the
 * address we connect to (no rebinding between check and use).
 */
function guardedLookup(policy: OutboundPolicy, hostname: string): net.LookupFunction {
  return (host, options, callback) => {
    const answer = (error: NodeJS.ErrnoException | null, list: dns.LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      if (!list.length) return callback(Object.assign(new Error(`${host} has no address`), { code: 'ENOTFOUND' }), '', 0);
      const refused = list.find((a) => !isPublicAddress(a.address));
      if (refused && !allowed(hostname, policy)) {
        // Which address is not said: the message reaches shops (webhook attempts) and anyone
        // (an image's 502), and would map internal names to internal addresses.
        return callback(new OutboundRefused(`${hostname} resolves to a non-public address`), '', 0);
      }
      if ((options as dns.LookupOptions).all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
      callback(null, list[0].address, list[0].family);
    };
    // Bounded and timed (dns-lookup.ts): a slow resolver must not take the thread pool.
    lookupLimiter()
      .resolve(host, options, policy.dnsTimeoutMs ?? DNS_TIMEOUT_MS)
      .then(
        (list) => answer(null, list),
        (error: NodeJS.ErrnoException) => answer(error, []),
      );
  };
}

export function checkOutboundUrl(raw: string, policy: OutboundPolicy): URL {
  const url = new URL(raw);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OutboundRefused(`${url.protocol} URLs are not allowed`);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (net.isIP(host) && !isPublicAddress(host) && !allowed(host, policy)) {
    throw new OutboundRefused(`${host} is not a public address`);
  }
  // Another port of a public host is as likely an internal service left open (a database, an
  // admin console) as a web server.
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  if (!STANDARD_PORTS.includes(port) && !policy.allowPorts?.includes(port) && !allowed(host, policy)) {
    throw new OutboundRefused(`port ${port} is not allowed (80 and 443 are)`);
  }
  return url;
}

export type OutboundResponse = { status: number; headers: http.IncomingHttpHeaders; body: Buffer };

/**
 * One HTTP request to a shop-supplied URL, refused for non-public targets unless the host is
 * allow-listed; redirects are returned, not followed; the body is read up to `maxBytes`.
 */
export async function requestOutbound(
  raw: string,
  policy: OutboundPolicy,
  init: { method: string; headers?: Record<string, string>; body?: string | Buffer; maxBytes?: number },
): Promise<OutboundResponse> {
  const url = checkOutboundUrl(raw, policy);
  const client = url.protocol === 'https:' ? https : http;
  const maxBytes = init.maxBytes ?? 1024 * 1024;
  return new Promise((resolve, reject) => {
    const req = client.request(
      url,
      { method: init.method, headers: init.headers, lookup: guardedLookup(policy, url.hostname), timeout: policy.timeoutMs },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) {
            req.destroy(new Error(`response larger than ${maxBytes} bytes`));
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${policy.timeoutMs} ms`)));
    // The socket timeout resets with every byte: a slow drip would hold the slot for ever.
    const deadline = setTimeout(() => req.destroy(new Error(`not complete within ${policy.timeoutMs * 2} ms`)), policy.timeoutMs * 2);
    req.on('close', () => clearTimeout(deadline));
    req.on('error', reject);
    req.end(init.body);
  });
}
