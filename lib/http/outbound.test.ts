import { describe, expect, it } from 'vitest';
import { startHttpReceiver } from '@/lib/testing/receivers';
import { checkOutboundUrl, isPublicAddress, OutboundRefused, requestOutbound } from './outbound';

const policy = { allowHosts: [] as string[], timeoutMs: 2000 };

describe('isPublicAddress', () => {
  it.each([
    '127.0.0.1',
    '127.255.0.9',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.251',
    '239.255.255.250',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fc00::1',
    'fd12:3456::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    // Each range's far edge, and the cloud metadata addresses.
    '10.255.255.255',
    '172.20.10.1',
    '192.168.255.255',
    '169.254.0.1',
    '100.127.255.255',
    '224.0.0.1',
    'FE80::1',
    'febf::1',
    'fc00::',
    'fdff:ffff::1',
    'fd00:ec2::254',
    'ff02::1',
    '::ffff:7f00:1',
    '::ffff:169.254.169.254',
    '::ffff:c0a8:101',
    // Teredo, local-use NAT64, site-local, discard-only, the 6to4 relay anycast.
    '2001:0:4136:e378::1',
    '64:ff9b:1::a00:1',
    'fec0::1',
    '100::1',
    '192.88.99.1',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700::1111',
    '::ffff:8.8.8.8',
    // The public neighbours of each private range.
    '2606:4700::1',
    '11.0.0.0',
    '9.255.255.255',
    '172.15.255.255',
    '192.167.255.255',
    '192.169.0.1',
    '169.253.255.255',
    '169.255.0.1',
    '100.63.255.255',
    '126.255.255.255',
    '128.0.0.1',
    '223.255.255.255',
    '2001:4860:4860::8888',
    '2001:67c:2e8::1',
    '192.88.100.1',
  ])('allows %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it('is false for something that is not an address', () => {
    expect(isPublicAddress('example.com')).toBe(false);
    expect(isPublicAddress('[::1]')).toBe(false);
    expect(isPublicAddress('')).toBe(false);
  });
});

describe('checkOutboundUrl', () => {
  it('refuses private literals and other schemes, allows listed hosts', () => {
    expect(() => checkOutboundUrl('http://10.0.0.5/hook', policy)).toThrow(OutboundRefused);
    expect(() => checkOutboundUrl('http://[::1]:8080/', policy)).toThrow('::1 is not a public address');
    expect(() => checkOutboundUrl('file:///etc/passwd', policy)).toThrow('file: URLs are not allowed');
    expect(() => checkOutboundUrl('ftp://8.8.8.8/', policy)).toThrow(OutboundRefused);
    expect(checkOutboundUrl('https://8.8.8.8/x', policy).hostname).toBe('8.8.8.8');
    expect(checkOutboundUrl('http://127.0.0.1:9/x', { ...policy, allowHosts: ['127.0.0.1'] }).port).toBe('9');
  });

  it.each([
    ['http://127.0.0.1/', '127.0.0.1'],
    ['http://10.0.0.1/', '10.0.0.1'],
    ['http://172.16.0.1/', '172.16.0.1'],
    ['http://192.168.0.1/', '192.168.0.1'],
    ['http://169.254.169.254/latest/meta-data/', '169.254.169.254'],
    ['http://100.64.0.1/', '100.64.0.1'],
    ['http://224.0.0.1/', '224.0.0.1'],
    ['http://0.0.0.0:3000/', '0.0.0.0'],
    ['http://[::1]/', '::1'],
    ['http://[fe80::1]/', 'fe80::1'],
    ['http://[fc00::1]/', 'fc00::1'],
    ['http://[ff02::1]/', 'ff02::1'],
    // The URL parser rewrites these spellings; the check sees the address they mean.
    ['http://[::ffff:127.0.0.1]/', '::ffff:7f00:1'],
    ['http://2130706433/', '127.0.0.1'],
    ['http://0x7f.1/', '127.0.0.1'],
    ['http://127.1/', '127.0.0.1'],
    ['https://0177.0.0.1/', '127.0.0.1'],
  ])('refuses %s', (url, address) => {
    expect(() => checkOutboundUrl(url, policy)).toThrow(OutboundRefused);
    expect(() => checkOutboundUrl(url, policy)).toThrow(`${address} is not a public address`);
  });

  it('allows public literals, and private ones only when their host is listed', () => {
    expect(checkOutboundUrl('http://8.8.8.8/hook?a=1', policy).href).toBe('http://8.8.8.8/hook?a=1');
    expect(checkOutboundUrl('https://[2606:4700::1]/', policy).hostname).toBe('[2606:4700::1]');
    const listed = { ...policy, allowHosts: ['10.0.0.5', '::1'] };
    expect(checkOutboundUrl('http://10.0.0.5/hook', listed).hostname).toBe('10.0.0.5');
    expect(checkOutboundUrl('http://[::1]:8080/', listed).port).toBe('8080');
    // Listing one host lets no other through.
    expect(() => checkOutboundUrl('http://10.0.0.6/hook', listed)).toThrow('10.0.0.6 is not a public address');
  });

  it('leaves names to the connection-time lookup', () => {
    expect(checkOutboundUrl('http://localhost/', policy).hostname).toBe('localhost');
    expect(checkOutboundUrl('https://hooks.example.com/x', policy).hostname).toBe('hooks.example.com');
  });

  it('allows ports 80 and 443 only, then the ports and hosts listed', () => {
    for (const url of ['http://8.8.8.8/', 'https://8.8.8.8/', 'http://8.8.8.8:443/', 'https://example.com:80/', 'https://example.com:443/x']) {
      expect(checkOutboundUrl(url, policy).hostname).not.toBe('');
    }
    for (const [url, port] of [['http://8.8.8.8:8080/hook', 8080], ['https://example.com:22/', 22], ['http://example.com:6379/', 6379], ['https://[2606:4700::1]:5432/', 5432]] as const) {
      expect(() => checkOutboundUrl(url, policy)).toThrow(OutboundRefused);
      expect(() => checkOutboundUrl(url, policy)).toThrow(`port ${port} is not allowed (80 and 443 are)`);
    }
    expect(checkOutboundUrl('https://example.com:8443/hook', { ...policy, allowPorts: [8443] }).port).toBe('8443');
    expect(() => checkOutboundUrl('https://example.com:8444/hook', { ...policy, allowPorts: [8443] })).toThrow('port 8444 is not allowed');
    // A listed host may use any port; listing it lets no other host use one.
    expect(checkOutboundUrl('http://hooks.internal:9000/', { ...policy, allowHosts: ['hooks.internal'] }).port).toBe('9000');
    expect(() => checkOutboundUrl('http://other.internal:9000/', { ...policy, allowHosts: ['hooks.internal'] })).toThrow('port 9000 is not allowed');
  });

  it.each(['file:///etc/passwd', 'ftp://8.8.8.8/', 'gopher://8.8.8.8:70/_x', 'data:text/plain,hi', 'javascript:alert(1)', 'ws://8.8.8.8/'])(
    'refuses the scheme of %s',
    (url) => {
      expect(() => checkOutboundUrl(url, policy)).toThrow(`${new URL(url).protocol} URLs are not allowed`);
      expect(() => checkOutboundUrl(url, { ...policy, allowHosts: ['8.8.8.8'] })).toThrow(OutboundRefused);
    },
  );
});

describe('requestOutbound', () => {
  it('refuses a name that resolves to loopback, and reaches it once allow-listed', async () => {
    const receiver = await startHttpReceiver([202]);
    try {
      // The receiver's port is allowed: the name is what is refused.
      const onPort = { ...policy, allowPorts: [receiver.port] };
      await expect(requestOutbound(`http://localhost:${receiver.port}/x`, onPort, { method: 'POST', body: '{}' })).rejects.toThrow(/localhost resolves to a non-public address/);
      expect(receiver.received).toHaveLength(0);
      const response = await requestOutbound(`http://localhost:${receiver.port}/x`, { ...policy, allowHosts: ['localhost'] }, { method: 'POST', body: '{"a":1}', headers: { 'Content-Type': 'application/json' } });
      expect(response.status).toBe(202);
      expect(receiver.received.map((r) => [r.method, r.path, r.body])).toEqual([['POST', '/x', '{"a":1}']]);
    } finally {
      await receiver.close();
    }
  });

  it('refuses with an OutboundRefused, so callers can tell a refusal from a failure', async () => {
    const receiver = await startHttpReceiver();
    try {
      const error = await requestOutbound(`http://localhost:${receiver.port}/`, { ...policy, allowPorts: [receiver.port] }, { method: 'GET' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OutboundRefused);
      expect((error as Error).message).toBe('localhost resolves to a non-public address');
      expect(receiver.received).toHaveLength(0);
    } finally {
      await receiver.close();
    }
  });

  it('returns the status, headers and body of an allow-listed target, and does not follow redirects', async () => {
    const receiver = await startHttpReceiver([302]);
    try {
      const listed = { ...policy, allowHosts: ['localhost'] };
      const redirected = await requestOutbound(`http://localhost:${receiver.port}/first`, listed, { method: 'GET' });
      expect(redirected.status).toBe(302);
      const response = await requestOutbound(`http://localhost:${receiver.port}/second`, listed, { method: 'GET' });
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toBe('text/plain');
      expect(response.body.toString()).toBe('ok');
      expect(receiver.received.map((r) => r.path)).toEqual(['/first', '/second']);
    } finally {
      await receiver.close();
    }
  });
});

describe('IPv6 forms that embed an IPv4 address', () => {
  it.each(['::7f00:1', '::ffff:0:7f00:1', '2002:7f00:1::1'])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it('rejects instead of throwing for a refused literal', async () => {
    const pending = requestOutbound('http://10.0.0.1/', { allowHosts: [], timeoutMs: 500 }, { method: 'GET' });
    await expect(pending).rejects.toBeInstanceOf(OutboundRefused);
  });

  it('refuses a public host on another port before connecting', async () => {
    await expect(requestOutbound('http://8.8.8.8:25/', policy, { method: 'GET' })).rejects.toThrow('port 25 is not allowed (80 and 443 are)');
  });
});
