import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { BlockList, isIP, type LookupFunction } from "node:net";

/**
 * Decision 037: the addresses a webhook never goes to unless its host is allowed
 * (WEBHOOK_ALLOWED_HOSTS): unspecified, loopback, private (RFC 1918), shared (CGNAT), link-local
 * (cloud metadata at 169.254.169.254), benchmarking, multicast and reserved IPv4; unspecified,
 * loopback, unique-local, link-local, multicast IPv6, and IPv4 mapped into IPv6 or NAT64.
 */
const REFUSED = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  REFUSED.addSubnet(net, prefix, "ipv4");
}
for (const [net, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["::ffff:0:0", 96],
  ["64:ff9b::", 96],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const) {
  REFUSED.addSubnet(net, prefix, "ipv6");
}

/** Whether `address` (an IPv4 or IPv6 literal) is one a webhook refuses (see REFUSED); true for a non-address. */
function isRefusedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  return REFUSED.check(address, family === 4 ? "ipv4" : "ipv6");
}

/** Whether `hostname` is one of `allowedHosts` (WEBHOOK_ALLOWED_HOSTS), compared without case and IPv6 brackets. */
function isAllowedHost(hostname: string, allowedHosts: readonly string[]): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return allowedHosts.some((h) => h.replace(/^\[|\]$/g, "").toLowerCase() === host);
}

/** Why a webhook URL's host is refused: the sentence shown to the admin and logged on a delivery. */
export function refusedAddressMessage(hostname: string, address: string): string {
  return (
    `The webhook host ${hostname} resolves to ${address}, a private, loopback or link-local address; ` +
    "such receivers are refused unless the host is listed in WEBHOOK_ALLOWED_HOSTS."
  );
}

/**
 * Resolves `hostname` to all its addresses (dns.lookup, as connections do) and answers the first
 * refused one, or null when every address may be reached (or the host is allowed). Rejects when the
 * name cannot be resolved.
 */
export async function refusedAddressOf(hostname: string, allowedHosts: readonly string[]): Promise<string | null> {
  if (isAllowedHost(hostname, allowedHosts)) return null;
  const host = hostname.replace(/^\[|\]$/g, "");
  const addresses = await new Promise<LookupAddress[]>((resolve, reject) =>
    dnsLookup(host, { all: true }, (error, found) => (error ? reject(error) : resolve(found))),
  );
  return addresses.find((a) => isRefusedAddress(a.address))?.address ?? null;
}

/**
 * A `lookup` for http.request that refuses, at connection time, a host resolving to a refused
 * address (so a name re-pointed after registration, or between check and connect, is still
 * caught): the connection fails with that message. Allowed hosts resolve as usual.
 */
export function guardedLookup(allowedHosts: readonly string[]): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, "", 0);
      const list = addresses as LookupAddress[];
      const refused = isAllowedHost(hostname, allowedHosts) ? undefined : list.find((a) => isRefusedAddress(a.address));
      if (refused) return callback(new Error(refusedAddressMessage(hostname, refused.address)), "", 0);
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      const first = list[0];
      if (!first) return callback(new Error(`The webhook host ${hostname} has no address.`), "", 0);
      callback(null, first.address, first.family);
    });
  };
}
