import { randomBytes } from "node:crypto";

/** A fresh resource-name prefix, so tests sharing the emulators never see each other's data. */
export function uniquePrefix(label: string): string {
  return `t${label.replace(/[^a-z0-9]/gi, "").slice(0, 12)}${randomBytes(4).toString("hex")}-`;
}
