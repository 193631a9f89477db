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
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '2606:4700::1111', '::ffff:8.8.8.8'])('allows %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it('is false for something that is not an address', () => {
    expect(isPublicAddress('example.com')).toBe(false);
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
});

describe('requestOutbound', () => {
  it('refuses a name that resolves to loopback, and reaches it once allow-listed', async () => {
    const receiver = await startHttpReceiver([202]);
    try {
      await expect(requestOutbound(`http://localhost:${receiver.port}/x`, policy, { method: 'POST', body: '{}' })).rejects.toThrow(/localhost resolves to a non-public address/);
      expect(receiver.received).toHaveLength(0);
      const response = await requestOutbound(`http://localhost:${receiver.port}/x`, { ...policy, allowHosts: ['localhost'] }, { method: 'POST', body: '{"a":1}', headers: { 'Content-Type': 'application/json' } });
      expect(response.status).toBe(202);
      expect(receiver.received.map((r) => [r.method, r.path, r.body])).toEqual([['POST', '/x', '{"a":1}']]);
    } finally {
      await receiver.close();
    }
  });
});
