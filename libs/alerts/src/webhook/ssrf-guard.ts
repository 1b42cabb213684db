import { BlockList, isIP } from 'node:net';

// Address ranges a webhook may never reach: the service's own machine and networks, and addresses that
// are not one host. `allowLoopback` (the test-only WEBHOOK_ALLOW_LOOPBACK) lets loopback through, nothing else.
const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

// Checked in order, so a narrower name (broadcast) wins over the wider range that holds it (reserved).
const REFUSED: Array<[string, BlockList]> = [];
function range(name: string, ...subnets: Array<[string, number, 'ipv4' | 'ipv6']>): void {
  const list = new BlockList();
  for (const [net, prefix, type] of subnets) list.addSubnet(net, prefix, type);
  REFUSED.push([name, list]);
}
range('unspecified address', ['0.0.0.0', 8, 'ipv4'], ['::', 128, 'ipv6']);
range('private address', ['10.0.0.0', 8, 'ipv4'], ['172.16.0.0', 12, 'ipv4'], ['192.168.0.0', 16, 'ipv4']);
range('link-local address', ['169.254.0.0', 16, 'ipv4'], ['fe80::', 10, 'ipv6']);
range('carrier-grade NAT address', ['100.64.0.0', 10, 'ipv4']);
range('multicast address', ['224.0.0.0', 4, 'ipv4'], ['ff00::', 8, 'ipv6']);
range('broadcast address', ['255.255.255.255', 32, 'ipv4']);
range('unique local IPv6 address', ['fc00::', 7, 'ipv6']);
// Site-local IPv6 is deprecated but still routed inside some networks as if private.
range('site-local IPv6 address', ['fec0::', 10, 'ipv6']);
// Teredo tunnels to an IPv4 host and 64:ff9b:1::/48 is local-use NAT64: where either leads is not ours to judge.
range('IPv6 tunnel address', ['2001::', 32, 'ipv6'], ['64:ff9b:1::', 48, 'ipv6']);
// 192.88.99.0/24 was the 6to4 relay anycast: a relay, not a receiver.
range(
  'reserved address',
  ['240.0.0.0', 4, 'ipv4'],
  ['192.0.0.0', 24, 'ipv4'],
  ['198.18.0.0', 15, 'ipv4'],
  ['192.88.99.0', 24, 'ipv4'],
  ['100::', 64, 'ipv6'],
);
range(
  'documentation address',
  ['192.0.2.0', 24, 'ipv4'],
  ['198.51.100.0', 24, 'ipv4'],
  ['203.0.113.0', 24, 'ipv4'],
  ['2001:db8::', 32, 'ipv6'],
);

/** The 16 bytes of an IPv6 address (any textual form, including a trailing dotted IPv4 part). */
function ipv6Bytes(address: string): number[] {
  let text = address.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const groups = (part: string | undefined) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const left = groups(head);
  const right = groups(tail);
  const words = tail === undefined ? left : [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
  return words.flatMap((w) => [w >> 8, w & 255]);
}

/**
 * The IPv4 address an IPv6 one carries, when the network would deliver it to that IPv4 host: mapped
 * (`::ffff:a.b.c.d`, also written `::ffff:7f00:1`), translated (`::ffff:0:a.b.c.d`), the old compatible form `::a.b.c.d`, NAT64
 * (`64:ff9b::/96`) and 6to4 (`2002:aabb:ccdd::/48`).
 */
function embeddedIpv4(address: string): string | null {
  const b = ipv6Bytes(address);
  const zeros = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  const v4 = (at: number) => b.slice(at, at + 4).join('.');
  if (zeros(0, 10) && b[10] === 0xff && b[11] === 0xff) return v4(12);
  if (zeros(0, 8) && b[8] === 0xff && b[9] === 0xff && zeros(10, 12)) return v4(12);
  if (zeros(0, 12) && !zeros(12, 15)) return v4(12);
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zeros(4, 12)) return v4(12);
  if (b[0] === 0x20 && b[1] === 0x02) return v4(2);
  return null;
}

/**
 * Why a webhook may not connect to `address` (an IP literal), or null when it may. IPv6 forms that carry
 * an IPv4 address are judged by that address.
 */
export function refusedAddressReason(address: string, allowLoopback: boolean): string | null {
  const family = isIP(address);
  if (family === 0) return `not an IP address: ${address}`;
  const inner = family === 6 ? embeddedIpv4(address) : null;
  if (inner) return refusedAddressReason(inner, allowLoopback);
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (LOOPBACK.check(address, type)) return allowLoopback ? null : `loopback address ${address}`;
  for (const [name, list] of REFUSED) if (list.check(address, type)) return `${name} ${address}`;
  return null;
}

/** Whether `address` (an IP literal, IPv6 forms carrying IPv4 included) is on this machine's loopback. */
export function isLoopbackAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  const inner = family === 6 ? embeddedIpv4(address) : null;
  if (inner) return isLoopbackAddress(inner);
  return LOOPBACK.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * Why a receiver URL may not be called, judged before any lookup (the scheme, an IP-literal host), or
 * null. The WHATWG URL parser has already turned decimal, hex and short IPv4 forms (`2130706433`,
 * `0x7f000001`, `0x7f.0.0.1`, `127.1`) into dotted ones, so they are judged like any literal. With
 * `allowLoopback`, `http:` is let through for loopback only: a literal must be loopback here, and a
 * name must resolve to loopback only (the sender checks that where it connects).
 */
export function refusedUrlReason(url: URL, allowLoopback: boolean): string | null {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (url.protocol !== 'https:' && !(allowLoopback && url.protocol === 'http:'))
    return `refused: ${url.protocol.slice(0, -1)} is not allowed, only https`;
  if (url.protocol === 'http:' && isIP(host) && !isLoopbackAddress(host))
    return `refused: http is allowed only to a loopback receiver, not ${host}`;
  if (url.username || url.password) return 'refused: credentials in the URL';
  if (isIP(host)) {
    const reason = refusedAddressReason(host, allowLoopback);
    return reason ? `refused: ${reason}` : null;
  }
  return null;
}
