/**
 * SSRF guard: which IP addresses a fetch may connect to, checked on every resolved address of every hop
 * (a hostname can resolve to an internal address, and a redirect can point anywhere).
 */

import type { LookupAddress, LookupOneOptions } from "node:dns";
import dns from "node:dns";
import type { LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";

/** Cloud metadata endpoints that sit in otherwise routable or "private" space. */
const METADATA_ADDRESSES = new Set([
  "169.254.169.254", // AWS, GCP, Azure IMDS, OpenStack
  "169.254.170.2", // AWS ECS task metadata
  "fd00:ec2::254", // AWS IMDS over IPv6
  "100.100.100.200", // Alibaba Cloud
  "192.0.0.192", // Oracle Cloud
  "168.63.129.16", // Azure WireServer (public unicast, still internal)
]);

/** Ranges that `allowPrivateAddresses` opens for tests and local runs; everything else stays blocked. */
const PRIVATE_RANGES = new Set(["loopback", "private", "uniqueLocal", "carrierGradeNat"]);

export class BlockedAddressError extends Error {
  readonly code = "ERR_BLOCKED_ADDRESS";
  constructor(
    readonly host: string,
    readonly address: string,
    readonly range: string,
  ) {
    super(`refusing to connect to ${host} (${address}, ${range})`);
    this.name = "BlockedAddressError";
  }
}

/** Strips IPv6 brackets and a zone id; returns null when `host` is not an IP literal. */
export function parseIpLiteral(host: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  let h = host.trim();
  if (h.startsWith("[") && h.endsWith("]")) h = h.slice(1, -1);
  const zone = h.indexOf("%");
  if (zone >= 0) h = h.slice(0, zone);
  // ipaddr.parse also accepts the legacy forms (2130706433, 0177.0.0.1, 127.1, 0x7f000001).
  return ipaddr.isValid(h) ? ipaddr.parse(h) : null;
}

/** The IPv4 address an IPv6 address embeds or translates to (mapped, NAT64, 6to4, IPv4-compatible). */
function embeddedIpv4(ip: ipaddr.IPv6): ipaddr.IPv4 | null {
  const range = ip.range();
  const p = ip.parts;
  const v4 = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
  if (range === "ipv4Mapped") return ip.toIPv4Address();
  if (range === "rfc6052" || range === "rfc6145") return v4(p[6]!, p[7]!);
  if (range === "6to4") return v4(p[1]!, p[2]!);
  // Deprecated IPv4-compatible ::a.b.c.d (but not :: or ::1).
  if (p.slice(0, 6).every((x) => x === 0) && (p[6]! !== 0 || p[7]! > 1)) return v4(p[6]!, p[7]!);
  return null;
}

/**
 * Why `address` must not be contacted, or null when it may be. `allowPrivate` opens loopback, RFC 1918,
 * unique-local and CGNAT space only; link-local, metadata, multicast, unspecified and broadcast stay shut.
 */
export function blockedRange(address: string, allowPrivate = false): string | null {
  const ip = parseIpLiteral(address);
  if (!ip) return "not an IP address";
  if (ip.kind() === "ipv6") {
    const v4 = embeddedIpv4(ip as ipaddr.IPv6);
    if (v4) return blockedRange(v4.toString(), allowPrivate);
  }
  const normal = ip.toString();
  if (METADATA_ADDRESSES.has(normal)) return "cloud metadata";
  const range = ip.range();
  if (range === "unicast") return null;
  if (allowPrivate && PRIVATE_RANGES.has(range)) return null;
  return range;
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/** A `net.connect` lookup that resolves all addresses and refuses the connection if any is blocked. */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  const lookup = (
    hostname: string,
    options: LookupOneOptions & { all?: boolean },
    callback: LookupCallback,
  ) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      if (addresses.length === 0) {
        const e: NodeJS.ErrnoException = new Error(`no addresses for ${hostname}`);
        e.code = "ENOTFOUND";
        return callback(e, []);
      }
      for (const a of addresses) {
        const why = blockedRange(a.address, allowPrivate);
        if (why) return callback(new BlockedAddressError(hostname, a.address, why), []);
      }
      if (options.all) return callback(null, addresses);
      const first = addresses[0]!;
      callback(null, first.address, first.family);
    });
  };
  return lookup as unknown as LookupFunction;
}
