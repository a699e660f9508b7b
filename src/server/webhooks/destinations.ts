import { BlockList, isIP } from 'node:net';

// Where webhook deliveries may go (issue 32.2). A webhook chooses the method, headers and body
// of a request the sandbox makes from the user's machine, so a client that may manage webhooks
// must not reach what that machine reaches unless the user says so:
// - public addresses: always (the hosted service delivers there too);
// - loopback (127.0.0.0/8, ::1): only for a webhook last written by the user's own credentials
//   (the admin client `sandbox-admin`, or a client given every functional permission with
//   `cms sandbox client create --permission all`): the tests' receivers on 127.0.0.1;
// - everything else (private ranges, carrier-grade NAT, link-local and 169.254.169.254, unique
//   local and site-local IPv6, unspecified, multicast, documentation, benchmarking and
//   transition ranges that embed an IPv4 address): never, unless the user lists it
//   (`cms sandbox serve --allow-webhook-to <host|address|cidr|*>`, the same for exec and
//   `startSandbox({ allowWebhookTo })`), which then lets every webhook writer reach it.
// The check is made on the address the connection goes to: a name is resolved, each address
// checked and the connection made to a checked one (a name that resolves elsewhere the next
// time cannot slip through); an IPv4-mapped IPv6 address is checked as the IPv4 address it is.
// Address spellings (decimal 2130706433, octal 0177.0.0.1, hex 0x7f.1) reach this already
// normalized by the URL parser. Redirects are never followed.

export type AddressKind = 'public' | 'loopback' | 'private' | 'link-local' | 'unspecified' | 'reserved';

const ranges: [AddressKind, string, number, 'ipv4' | 'ipv6'][] = [
  ['unspecified', '0.0.0.0', 8, 'ipv4'],
  ['loopback', '127.0.0.0', 8, 'ipv4'],
  ['private', '10.0.0.0', 8, 'ipv4'],
  ['private', '172.16.0.0', 12, 'ipv4'],
  ['private', '192.168.0.0', 16, 'ipv4'],
  ['private', '100.64.0.0', 10, 'ipv4'],
  ['link-local', '169.254.0.0', 16, 'ipv4'],
  ['reserved', '192.0.0.0', 24, 'ipv4'],
  ['reserved', '192.0.2.0', 24, 'ipv4'],
  ['reserved', '192.88.99.0', 24, 'ipv4'],
  ['reserved', '198.18.0.0', 15, 'ipv4'],
  ['reserved', '198.51.100.0', 24, 'ipv4'],
  ['reserved', '203.0.113.0', 24, 'ipv4'],
  ['reserved', '224.0.0.0', 4, 'ipv4'],
  ['reserved', '240.0.0.0', 4, 'ipv4'],
  ['unspecified', '::', 128, 'ipv6'],
  ['loopback', '::1', 128, 'ipv6'],
  // IPv4-compatible (deprecated) addresses embed an IPv4 address: never a public destination.
  ['reserved', '::', 96, 'ipv6'],
  ['reserved', '64:ff9b::', 96, 'ipv6'],
  ['reserved', '64:ff9b:1::', 48, 'ipv6'],
  ['reserved', '100::', 64, 'ipv6'],
  ['reserved', '2001::', 23, 'ipv6'],
  ['reserved', '2001:db8::', 32, 'ipv6'],
  ['reserved', '2002::', 16, 'ipv6'],
  ['private', 'fc00::', 7, 'ipv6'],
  ['link-local', 'fe80::', 10, 'ipv6'],
  ['private', 'fec0::', 10, 'ipv6'],
  ['reserved', 'ff00::', 8, 'ipv6'],
];
const lists = new Map<AddressKind, BlockList>();
for (const [kind, net, prefix, type] of ranges) {
  let list = lists.get(kind);
  if (!list) lists.set(kind, (list = new BlockList()));
  list.addSubnet(net, prefix, type);
}

/** An address as text without brackets, IPv6 in its canonical form; an IPv4-mapped IPv6 address as its IPv4 address. */
export function plainAddress(address: string): string {
  const bare = address.replace(/^\[|\]$/g, '').toLowerCase();
  if (isIP(bare) !== 6) return bare;
  let canonical: string;
  try {
    canonical = new URL(`http://[${bare}]/`).hostname.slice(1, -1);
  } catch {
    return bare;
  }
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(canonical);
  if (!mapped) return canonical;
  const hi = parseInt(mapped[1]!, 16);
  const lo = parseInt(mapped[2]!, 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** What kind of destination an IP address is (IPv4-mapped IPv6 as the IPv4 address). */
export function classify(address: string): AddressKind {
  const plain = plainAddress(address);
  const type = isIP(plain);
  if (type === 0) return 'reserved';
  try {
    for (const [kind, list] of lists) if (list.check(plain, type === 4 ? 'ipv4' : 'ipv6')) return kind;
  } catch {
    return 'reserved';
  }
  return 'public';
}

/** One --allow-webhook-to value: `*`, a host name, an address or a CIDR range. */
export type AllowRule = { any: true } | { host: string } | { list: BlockList; text: string };

/** Parses an --allow-webhook-to value; throws with what is wrong. */
export function parseAllowRule(value: string): AllowRule {
  const v = value.trim().toLowerCase();
  if (v === '*') return { any: true };
  const cidr = /^(.+)\/(\d{1,3})$/.exec(v);
  const address = plainAddress(cidr ? cidr[1]! : v);
  const type = isIP(address);
  if (type) {
    const prefix = cidr ? Number(cidr[2]) : type === 4 ? 32 : 128;
    if (prefix > (type === 4 ? 32 : 128)) throw new Error(`'${value}': a /${prefix} range is longer than the address`);
    const list = new BlockList();
    list.addSubnet(address, prefix, type === 4 ? 'ipv4' : 'ipv6');
    return { list, text: v };
  }
  if (cidr) throw new Error(`'${value}' is not an address range (address/prefix)`);
  if (!/^[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?)*\.?$/.test(v) || v.length > 253) throw new Error(`'${value}' is not a host name, an address, a range or *`);
  return { host: v.replace(/\.$/, '') };
}

export interface DestinationPolicy {
  /** The user's --allow-webhook-to rules. */
  allow: readonly AllowRule[];
  /** The webhook was last written by the user's own credentials (core/auth/principal.ts fullyTrusted): loopback is allowed. */
  trustedWriter: boolean;
}

/** Why a delivery may not go to `address` (reached through `hostname`), or null when it may. */
export function destinationProblem(policy: DestinationPolicy, hostname: string, address: string): string | null {
  const plain = plainAddress(address);
  const kind = classify(plain);
  if (kind === 'public') return null;
  const host = hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
  for (const rule of policy.allow) {
    if ('any' in rule) return null;
    if ('host' in rule && rule.host === host) return null;
    if ('list' in rule && isIP(plain) && rule.list.check(plain, isIP(plain) === 4 ? 'ipv4' : 'ipv6')) return null;
  }
  if (kind === 'loopback' && policy.trustedWriter) return null;
  const who = kind === 'loopback' ? ' (allowed only for webhooks last changed by the admin client or a client with every permission)' : '';
  return `destination not allowed: ${host === plain ? plain : `${host} (${plain})`} is a ${kind} address${who}; the user may allow it with cms sandbox serve --allow-webhook-to <host|address|range>`;
}

/** Why a handler URL may not be saved (it names a forbidden address or `localhost` literally), or null; names are checked at delivery. */
export function literalProblem(policy: DestinationPolicy, url: URL): string | null {
  const kind = literalKind(url);
  if (kind === null || kind === 'public') return null;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return destinationProblem(policy, host, isIP(plainAddress(host)) ? host : '127.0.0.1');
}

/** The kind of destination a handler URL names literally (an address, or `localhost`), before any lookup; null for other names. */
export function literalKind(url: URL): AddressKind | null {
  const host = url.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return 'loopback';
  return isIP(plainAddress(host)) ? classify(host) : null;
}
