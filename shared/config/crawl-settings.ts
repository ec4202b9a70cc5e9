/** Crawl settings from the function's environment, validated, with safe defaults. */
import { z } from "zod";

const flag = z
  .enum(["true", "false", "1", "0"])
  .optional()
  .transform((v) => v === "true" || v === "1");

export const crawlSettingsSchema = z.object({
  STORYTRAIL_USER_AGENT: z
    .string()
    .default("storytrail/0.1 (+https://github.com/storytrail/storytrail; news research crawler)"),
  /** Only tests and local runs against loopback sites set this. */
  STORYTRAIL_ALLOW_PRIVATE_ADDRESSES: flag,
  STORYTRAIL_RAW_SAMPLE_RATE: z.coerce.number().min(0).max(1).default(0.1),
  STORYTRAIL_MIN_HOST_DELAY_MS: z.coerce.number().int().min(0).default(1000),
  STORYTRAIL_CANONICAL_PARTNERS: z
    .string()
    .default("")
    .transform((s) =>
      s
        .split(",")
        .map((p) => p.trim())
        .filter(Boolean),
    ),
});

export type CrawlSettings = z.infer<typeof crawlSettingsSchema>;

export function crawlSettings(env: Readonly<Record<string, string | undefined>>): CrawlSettings {
  return crawlSettingsSchema.parse(env);
}
