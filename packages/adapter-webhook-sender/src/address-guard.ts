import { BlockList, isIP } from 'node:net';

// The SSRF guard: a webhook may only reach the public internet. Every range that is not
// globally reachable (IANA special-purpose registries for IPv4 and IPv6) is refused, as are
// IPv4 addresses wrapped in IPv6 (mapped, NAT64) that land in one.

const v4Ranges: readonly [string, number][] = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // shared address space (CGNAT)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata services live here)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
];

const v6Ranges: readonly [string, number][] = [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['100::', 64], // discard
  ['2001::', 23], // IETF protocol assignments (Teredo, benchmarking, ORCHID...)
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
];

const blocked = new BlockList();
for (const [net, prefix] of v4Ranges) blocked.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of v6Ranges) blocked.addSubnet(net, prefix, 'ipv6');

/** The IPv4 address inside an IPv4-mapped (::ffff:a.b.c.d) or NAT64 (64:ff9b::/96) IPv6 address. */
const embeddedV4 = (ip: string): string | null => {
  const lower = ip.toLowerCase();
  const m = /^(?:::ffff:|64:ff9b::)(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/.exec(lower);
  if (m === null) return null;
  if (m[1] !== undefined) return m[1];
  const hi = parseInt(m[2] ?? '0', 16);
  const lo = parseInt(m[3] ?? '0', 16);
  return `${String(hi >> 8)}.${String(hi & 255)}.${String(lo >> 8)}.${String(lo & 255)}`;
};

/** Whether an IP address (v4 or v6, as text) is globally reachable. */
export const isPublicAddress = (ip: string): boolean => {
  const family = isIP(ip);
  if (family === 4) return !blocked.check(ip, 'ipv4');
  if (family !== 6) return false;
  const v4 = embeddedV4(ip);
  if (v4 !== null) return isPublicAddress(v4);
  return !blocked.check(ip, 'ipv6');
};
