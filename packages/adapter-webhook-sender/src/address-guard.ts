import { BlockList, isIP } from 'node:net';

// The SSRF guard: a webhook may only reach the public internet. Every range that is not
// globally reachable (IANA special-purpose registries for IPv4 and IPv6) is refused, as are
// IPv4 addresses wrapped in IPv6 that land in one, in every form (contract §11: compatible
// ::/96, mapped ::ffff:0:0/96, translated ::ffff:0:0:0/96, NAT64 64:ff9b::/96), and the
// local-use NAT64 prefix 64:ff9b:1::/48 whole.

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
  ['100:0:0:1::', 64], // dummy prefix (RFC 9780)
  ['2001::', 23], // IETF protocol assignments (Teredo, benchmarking, ORCHID...)
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4
  ['3fff::', 20], // documentation (RFC 9637)
  ['5f00::', 16], // segment routing (SRv6) SIDs (RFC 9602)
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated by RFC 3879, still an inside network where used)
  ['ff00::', 8], // multicast
];

const blocked = new BlockList();
for (const [net, prefix] of v4Ranges) blocked.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of v6Ranges) blocked.addSubnet(net, prefix, 'ipv6');

/** The eight 16-bit groups of an IPv6 address (a dotted IPv4 tail taken as the last two), or null when it is not one. */
export const ipv6Groups = (ip: string): number[] | null => {
  let text = ip.toLowerCase();
  const dotted = /^(.*:)(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted !== null) {
    const bytes = dotted.slice(2, 6).map(Number);
    if (bytes.some((b) => b > 255)) return null;
    const [a = 0, b = 0, c = 0, d = 0] = bytes;
    text = `${dotted[1] ?? ''}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const part = (s: string | undefined): string[] => (s === undefined || s === '' ? [] : s.split(':'));
  const head = part(halves[0]);
  const tail = part(halves[1]);
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...head, ...Array<string>(halves.length === 1 ? 0 : missing).fill('0'), ...tail];
  if (groups.some((g) => !/^[0-9a-f]{1,4}$/.test(g))) return null;
  return groups.map((g) => parseInt(g, 16));
};

const v4Of = (hi: number, lo: number): string =>
  `${String(hi >> 8)}.${String(hi & 255)}.${String(lo >> 8)}.${String(lo & 255)}`;

const zero = (groups: readonly number[]): boolean => groups.every((g) => g === 0);

/**
 * The IPv4 address an IPv6 one stands for, when it is one of the forms that carry an IPv4
 * address in their last 32 bits: IPv4-compatible (::/96, deprecated), IPv4-mapped
 * (::ffff:0:0/96), IPv4-translated (::ffff:0:0:0/96, SIIT) and the well-known NAT64 prefix
 * (64:ff9b::/96).
 */
const embeddedV4 = (g: readonly number[]): string | null => {
  const [g0, g1, , , g4, g5, g6 = 0, g7 = 0] = g;
  if (zero(g.slice(0, 5)) && (g5 === 0 || g5 === 0xffff)) return v4Of(g6, g7);
  if (zero(g.slice(0, 4)) && g4 === 0xffff && g5 === 0) return v4Of(g6, g7);
  if (g0 === 0x64 && g1 === 0xff9b && zero(g.slice(2, 6))) return v4Of(g6, g7);
  return null;
};

/** The local-use NAT64 prefix (64:ff9b:1::/48, RFC 8215), whose embedding a network chooses: never public. */
const localNat64 = (g: readonly number[]): boolean => g[0] === 0x64 && g[1] === 0xff9b && g[2] === 1;

/** Whether an IP address (v4 or v6, as text) is globally reachable. */
export const isPublicAddress = (ip: string): boolean => {
  const family = isIP(ip);
  if (family === 4) return !blocked.check(ip, 'ipv4');
  if (family !== 6) return false;
  const groups = ipv6Groups(ip.replace(/%.*$/, ''));
  if (groups === null) return false;
  if (localNat64(groups)) return false;
  const v4 = embeddedV4(groups);
  if (v4 !== null) return isPublicAddress(v4);
  return !blocked.check(ip, 'ipv6');
};
