import http from 'node:http';

export type PlainResponse = { status: number; headers: http.IncomingHttpHeaders; body: string };

/**
 * One HTTP request sent from a chosen local address (127.0.0.2, …: every 127/8 address is this
 * machine's), so a test can be several clients; fetch cannot choose its source address.
 */
export function requestFrom(
  localAddress: string,
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<PlainResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: init.method ?? 'GET', headers: init.headers, localAddress, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(init.body);
  });
}
