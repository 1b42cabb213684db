import { describe, expect, it } from '@jest/globals';
import { refusedAddressReason, refusedUrlReason } from './ssrf-guard.js';

describe('refusedAddressReason', () => {
  it.each([
    ['127.0.0.1', 'loopback address 127.0.0.1'],
    ['127.255.255.254', 'loopback address 127.255.255.254'],
    ['::1', 'loopback address ::1'],
    ['10.0.0.1', 'private address 10.0.0.1'],
    ['172.16.5.4', 'private address 172.16.5.4'],
    ['172.31.255.255', 'private address 172.31.255.255'],
    ['192.168.1.1', 'private address 192.168.1.1'],
    ['169.254.169.254', 'link-local address 169.254.169.254'],
    ['fe80::1', 'link-local address fe80::1'],
    ['febf::1', 'link-local address febf::1'],
    ['100.64.0.1', 'carrier-grade NAT address 100.64.0.1'],
    ['100.127.255.255', 'carrier-grade NAT address 100.127.255.255'],
    ['224.0.0.1', 'multicast address 224.0.0.1'],
    ['239.255.255.250', 'multicast address 239.255.255.250'],
    ['ff02::1', 'multicast address ff02::1'],
    ['0.0.0.0', 'unspecified address 0.0.0.0'],
    ['0.1.2.3', 'unspecified address 0.1.2.3'],
    ['::', 'unspecified address ::'],
    ['255.255.255.255', 'broadcast address 255.255.255.255'],
    ['240.0.0.1', 'reserved address 240.0.0.1'],
    ['198.18.0.1', 'reserved address 198.18.0.1'],
    ['fd00::1', 'unique local IPv6 address fd00::1'],
    ['fc00::1', 'unique local IPv6 address fc00::1'],
    ['192.0.2.10', 'documentation address 192.0.2.10'],
    ['2001:db8::1', 'documentation address 2001:db8::1'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'IPv6 tunnel address 2001:0:4136:e378:8000:63bf:3fff:fdd2'],
    ['2001::1', 'IPv6 tunnel address 2001::1'],
    ['64:ff9b:1::a00:1', 'IPv6 tunnel address 64:ff9b:1::a00:1'],
    ['64:ff9b:1:ffff::1', 'IPv6 tunnel address 64:ff9b:1:ffff::1'],
    ['fec0::1', 'site-local IPv6 address fec0::1'],
    ['feff::1', 'site-local IPv6 address feff::1'],
    ['192.88.99.1', 'reserved address 192.88.99.1'],
    ['::ffff:192.88.99.254', 'reserved address 192.88.99.254'],
  ])('refuses %s: %s', (address, reason) => {
    expect(refusedAddressReason(address, false)).toBe(reason);
  });

  it.each([
    ['::ffff:127.0.0.1', 'loopback address 127.0.0.1'],
    ['::ffff:7f00:1', 'loopback address 127.0.0.1'],
    ['0:0:0:0:0:ffff:7f00:0001', 'loopback address 127.0.0.1'],
    ['::ffff:a9fe:a9fe', 'link-local address 169.254.169.254'],
    ['::ffff:10.0.0.1', 'private address 10.0.0.1'],
    ['::127.0.0.1', 'loopback address 127.0.0.1'],
    ['::ffff:0:7f00:1', 'loopback address 127.0.0.1'],
    ['64:ff9b::10.0.0.1', 'private address 10.0.0.1'],
    ['64:ff9b::7f00:1', 'loopback address 127.0.0.1'],
    ['2002:c0a8:101::1', 'private address 192.168.1.1'],
  ])('judges %s by the IPv4 address inside it: %s', (address, reason) => {
    expect(refusedAddressReason(address, false)).toBe(reason);
  });

  it.each([
    '8.8.8.8',
    '93.184.216.34',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
    // Just outside the refused ranges: 2001:1::/32 is not Teredo, 64:ff9b:2:: not the local-use NAT64 block.
    '2001:1::1',
    '2001:4860:4860::8888',
    '64:ff9b:2::1',
    '192.88.100.1',
    'fe00::1',
  ])('allows the public address %s', (address) => {
    expect(refusedAddressReason(address, false)).toBeNull();
  });

  it('with the test-only setting lets loopback through and nothing else', () => {
    for (const address of ['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1', '::ffff:7f00:1'])
      expect(refusedAddressReason(address, true)).toBeNull();
    expect(refusedAddressReason('10.0.0.1', true)).toBe('private address 10.0.0.1');
    expect(refusedAddressReason('::ffff:192.168.0.1', true)).toBe('private address 192.168.0.1');
    expect(refusedAddressReason('169.254.169.254', true)).toBe('link-local address 169.254.169.254');
    expect(refusedAddressReason('fd00::1', true)).toBe('unique local IPv6 address fd00::1');
    expect(refusedAddressReason('0.0.0.0', true)).toBe('unspecified address 0.0.0.0');
  });
});

describe('refusedUrlReason', () => {
  it('relies on the WHATWG URL parser to write decimal, hex, octal and short IPv4 hosts as dotted ones', () => {
    expect(new URL('https://2130706433/').hostname).toBe('127.0.0.1');
    expect(new URL('https://0x7f000001/').hostname).toBe('127.0.0.1');
    expect(new URL('https://0x7f.0.0.1/').hostname).toBe('127.0.0.1');
    expect(new URL('https://0177.0.0.1/').hostname).toBe('127.0.0.1');
    expect(new URL('https://127.1/').hostname).toBe('127.0.0.1');
    expect(new URL('https://10.1/').hostname).toBe('10.0.0.1');
    expect(new URL('https://[::ffff:127.0.0.1]/').hostname).toBe('[::ffff:7f00:1]');
    expect(new URL('https://[0:0:0:0:0:0:0:1]/').hostname).toBe('[::1]');
  });

  it.each([
    ['https://2130706433/', 'refused: loopback address 127.0.0.1'],
    ['https://0x7f000001/hook', 'refused: loopback address 127.0.0.1'],
    ['https://0x7f.0.0.1/', 'refused: loopback address 127.0.0.1'],
    ['https://127.1/', 'refused: loopback address 127.0.0.1'],
    ['https://[::1]:8443/', 'refused: loopback address ::1'],
    ['https://[::ffff:127.0.0.1]/', 'refused: loopback address 127.0.0.1'],
    ['https://[fd12:3456::1]/', 'refused: unique local IPv6 address fd12:3456::1'],
    ['http://93.184.216.34/', 'refused: http is not allowed, only https'],
    ['ftp://example.com/', 'refused: ftp is not allowed, only https'],
    ['https://user:pw@example.com/', 'refused: credentials in the URL'],
  ])('refuses %s before any lookup: %s', (url, reason) => {
    expect(refusedUrlReason(new URL(url), false)).toBe(reason);
  });

  it('leaves host names to the connect-time check, and allows public literals over https', () => {
    expect(refusedUrlReason(new URL('https://hooks.example.com/x'), false)).toBeNull();
    expect(refusedUrlReason(new URL('https://93.184.216.34/x'), false)).toBeNull();
    expect(refusedUrlReason(new URL('https://[2606:4700::1111]/x'), false)).toBeNull();
  });

  it('with the test-only setting allows loopback, and http only to loopback, still nothing private', () => {
    expect(refusedUrlReason(new URL('http://127.0.0.1:8080/'), true)).toBeNull();
    expect(refusedUrlReason(new URL('http://[::1]:8080/'), true)).toBeNull();
    expect(refusedUrlReason(new URL('https://127.0.0.1:8443/'), true)).toBeNull();
    expect(refusedUrlReason(new URL('http://10.0.0.1/'), true)).toBe('refused: http is allowed only to a loopback receiver, not 10.0.0.1');
    expect(refusedUrlReason(new URL('http://93.184.216.34/'), true)).toBe(
      'refused: http is allowed only to a loopback receiver, not 93.184.216.34',
    );
    expect(refusedUrlReason(new URL('https://10.0.0.1/'), true)).toBe('refused: private address 10.0.0.1');
    expect(refusedUrlReason(new URL('ftp://127.0.0.1/'), true)).toBe('refused: ftp is not allowed, only https');
    // A name is judged where the connection is made: there, every address must be loopback (webhook-sender.spec).
    expect(refusedUrlReason(new URL('http://receiver.example/'), true)).toBeNull();
  });
});
