import { describe, expect, it } from "vitest";
import { blockedRange, parseIpLiteral } from "../../../shared/fetch/address-guard";

describe("blockedRange", () => {
  const blocked: string[] = [
    "127.0.0.1",
    "127.255.255.254",
    "2130706433",
    "0177.0.0.1",
    "127.1",
    "0x7f000001",
    "0x7f.0.0.1",
    "::1",
    "[::1]",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::127.0.0.1",
    "64:ff9b::7f00:1",
    "2002:7f00:1::",
    "10.1.2.3",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.0.1",
    "169.254.169.254",
    "169.254.170.2",
    "::ffff:169.254.169.254",
    "fd00:ec2::254",
    "fe80::1%eth0",
    "fc00::1",
    "100.64.0.1",
    "100.100.100.200",
    "168.63.129.16",
    "192.0.0.192",
    "0.0.0.0",
    "0",
    "::",
    "255.255.255.255",
    "224.0.0.1",
    "239.255.255.250",
    "ff02::1",
    "240.0.0.1",
  ];
  for (const a of blocked) {
    it(`blocks ${a}`, () => {
      expect(blockedRange(a)).not.toBeNull();
    });
  }
  for (const a of [
    "93.184.216.34",
    "8.8.8.8",
    "2606:4700:4700::1111",
    "::ffff:8.8.8.8",
    "172.32.0.1",
    "100.128.0.1",
  ]) {
    it(`allows ${a}`, () => {
      expect(blockedRange(a)).toBeNull();
    });
  }

  it("allowPrivate opens loopback, RFC 1918, unique-local and CGNAT but not metadata or link-local", () => {
    for (const a of [
      "127.0.0.1",
      "::1",
      "10.0.0.1",
      "192.168.1.1",
      "fd12::1",
      "100.64.0.1",
      "::ffff:127.0.0.1",
    ]) {
      expect(blockedRange(a, true), a).toBeNull();
    }
    for (const a of [
      "169.254.169.254",
      "fd00:ec2::254",
      "100.100.100.200",
      "fe80::1",
      "0.0.0.0",
      "224.0.0.1",
      "255.255.255.255",
    ]) {
      expect(blockedRange(a, true), a).not.toBeNull();
    }
  });

  it("names the range", () => {
    expect(blockedRange("127.0.0.1")).toBe("loopback");
    expect(blockedRange("169.254.169.254")).toBe("cloud metadata");
    expect(blockedRange("10.0.0.1")).toBe("private");
    expect(blockedRange("example.com")).toBe("not an IP address");
  });

  it("parseIpLiteral recognises IP literals only", () => {
    expect(parseIpLiteral("[::1]")?.toString()).toBe("::1");
    expect(parseIpLiteral("0177.0.0.1")?.toString()).toBe("127.0.0.1");
    expect(parseIpLiteral("example.com")).toBeNull();
  });
});
