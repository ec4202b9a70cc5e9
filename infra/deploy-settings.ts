/**
 * Settings an ops team sets at deploy time: `-c settings=FILE`, a JSON object of
 * - the STORYTRAIL_* variables `shared/config/crawl-settings.ts` reads (User-Agent, host delay,
 *   raw-sample rate, LSH retention, canonical partners): every function gets them as environment;
 * - the deployment's own options (lower case, never in a function's environment): who the alarms
 *   reach (`alarm_emails`, `alarm_https_endpoints`), whether X-Ray tracing is on (`tracing`), and the
 *   tables' capacity mode (`capacity_mode`, `provisioned_capacity`), and the deployed backfill
 *   (`backfill`: on/off, source bucket and prefix, concurrency, failure tolerance), and the dataset
 *   catalog (`dataset`: the first day partition projection lists, Athena's per-query bytes cutoff).
 * Validated at synth, so a typo fails `cdk synth`, not the first crawl.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import * as z from "zod/mini";
import { crawlSettings, crawlSettingsSchema } from "../shared/config/crawl-settings";
import { backfillSettingsSchema, DEFAULT_BACKFILL } from "./backfill-settings";
import { DEFAULT_DATASET, datasetSettingsSchema } from "./dataset-settings";

/** Settings for local runs against test sites, never for a deployment: one opens loopback and private
 * addresses, the other moves the functions' clock off the wall clock (clock.ts). */
const LOCAL_ONLY: readonly string[] = ["STORYTRAIL_ALLOW_PRIVATE_ADDRESSES", "STORYTRAIL_NOW"];

export const DEPLOYABLE_SETTINGS = Object.keys(crawlSettingsSchema.shape).filter(
  (k) => !LOCAL_ONLY.includes(k),
);

/** The deployment's own options: lower-case keys of the settings file. */
export const opsOptionsSchema = z.object({
  /** E-mail addresses subscribed to the alarm topic (each confirms once by e-mail). */
  alarm_emails: z._default(z.array(z.email()), []),
  /**
   * HTTPS endpoints subscribed to the alarm topic: an incident tool's SNS integration URL (PagerDuty,
   * Opsgenie, …) that confirms the subscription. Chat (Slack, Teams) goes through AWS Chatbot on the
   * exported AlarmTopicArn instead: see docs/operations.md.
   */
  alarm_https_endpoints: z._default(z.array(z.url({ protocol: /^https$/ })), []),
  /** Active X-Ray tracing. Off by default: no handler has a tracer, so traces hold bare segments. */
  tracing: z._default(z.boolean(), false),
  /** The deployed backfill (Step Functions Distributed Map over WARC files): infra/backfill-settings.ts. */
  backfill: z._default(backfillSettingsSchema, DEFAULT_BACKFILL),
  /** The archive's Glue catalog and Athena workgroup: infra/dataset-settings.ts. */
  dataset: z._default(datasetSettingsSchema, DEFAULT_DATASET),
});
export type OpsOptions = z.infer<typeof opsOptionsSchema>;
const OPS_KEYS = Object.keys(opsOptionsSchema.shape);

const capacityUnits = z.int().check(z.gte(1), z.lte(40_000));
/** Auto scaling of every table and index in provisioned mode: read and write units between min and max. */
const provisionedCapacitySchema = z.object({
  read_min: z._default(capacityUnits, 1),
  read_max: z._default(capacityUnits, 200),
  write_min: z._default(capacityUnits, 1),
  write_max: z._default(capacityUnits, 200),
  /** Target tracking keeps consumed at this share of provisioned (DynamoDB accepts 20–90). */
  target_utilization_percent: z._default(z.int().check(z.gte(20), z.lte(90)), 70),
});
/**
 * The tables' capacity mode (lower-case keys). `on_demand` (the default) suits the daily burst: pay per
 * request, nothing when idle. `provisioned` with auto scaling suits a steady crawl (discovery every few
 * minutes): capacity-hours cost about 40 % of the same writes on demand at 70 % utilisation
 * (bench/provisioned-capacity.ts), but a burst above the provisioned rate is throttled until scaling
 * catches up (minutes).
 */
const capacityOptionsSchema = z.object({
  capacity_mode: z._default(z.enum(["on_demand", "provisioned"]), "on_demand"),
  provisioned_capacity: z.optional(provisionedCapacitySchema),
});
export type ProvisionedCapacity = z.infer<typeof provisionedCapacitySchema>;
export type CapacityOptions =
  | { readonly mode: "on_demand" }
  | ({ readonly mode: "provisioned" } & ProvisionedCapacity);
const CAPACITY_KEYS = Object.keys(capacityOptionsSchema.shape);

export interface DeploySettings {
  /** Environment variables for every function. */
  readonly env: Readonly<Record<string, string>>;
  /** Alarm subscribers and tracing. */
  readonly ops: OpsOptions;
  /** The tables' capacity mode (on demand unless the settings ask for provisioned). */
  readonly capacity: CapacityOptions;
  /** What the synth should warn about (the stack adds them as CDK warnings). */
  readonly warnings: readonly string[];
}

/** Validates a settings object as read from JSON; `origin` names it in errors. */
export function deploySettings(raw: unknown, origin = "settings"): DeploySettings {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw))
    throw new Error(`${origin}: expected an object of STORYTRAIL_* settings`);
  const env: Record<string, string> = {};
  const opsRaw: Record<string, unknown> = {};
  const capacityRaw: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (OPS_KEYS.includes(key)) {
      opsRaw[key] = value;
      continue;
    }
    if (CAPACITY_KEYS.includes(key)) {
      capacityRaw[key] = value;
      continue;
    }
    if (LOCAL_ONLY.includes(key))
      throw new Error(`${origin}: ${key} is for local runs against test sites, never for a deployment`);
    if (!DEPLOYABLE_SETTINGS.includes(key))
      throw new Error(
        `${origin}: unknown setting ${key} (known: ${[...DEPLOYABLE_SETTINGS, ...OPS_KEYS, ...CAPACITY_KEYS].join(", ")})`,
      );
    if (typeof value !== "string" && typeof value !== "number")
      throw new Error(`${origin}: ${key} must be a string or a number`);
    env[key] = String(value);
  }
  const parsed = crawlSettingsSchema.safeParse(env);
  if (!parsed.success) throw new Error(`${origin}: ${issueList(parsed.error.issues)}`);
  const ops = opsOptionsSchema.safeParse(opsRaw);
  if (!ops.success) throw new Error(`${origin}: ${issueList(ops.error.issues)}`);
  const capacity = capacityOptions(capacityRaw, origin);
  const warnings: string[] = [];
  const agent = env.STORYTRAIL_USER_AGENT;
  if (!agent) {
    warnings.push(
      `crawling with the default User-Agent "${crawlSettings({}).STORYTRAIL_USER_AGENT}": set STORYTRAIL_USER_AGENT (-c settings=FILE) to name your crawler and a contact URL publishers can reach`,
    );
  } else if (!/https?:\/\/|@/.test(agent)) {
    warnings.push(
      `STORYTRAIL_USER_AGENT "${agent}" gives no contact: add a URL or an e-mail address publishers can reach`,
    );
  }
  if (ops.data.alarm_emails.length === 0 && ops.data.alarm_https_endpoints.length === 0) {
    warnings.push(
      "no alarm subscriber: set alarm_emails (or alarm_https_endpoints) in -c settings=FILE, or subscribe to the AlarmTopicArn output yourself, so an alarm reaches a person",
    );
  }
  return { env, ops: ops.data, capacity, warnings };
}

function capacityOptions(raw: Record<string, unknown>, origin: string): CapacityOptions {
  const parsed = capacityOptionsSchema.safeParse(raw);
  if (!parsed.success) throw new Error(`${origin}: ${issueList(parsed.error.issues)}`);
  const { capacity_mode, provisioned_capacity } = parsed.data;
  if (capacity_mode === "on_demand") {
    if (provisioned_capacity)
      throw new Error(`${origin}: provisioned_capacity applies only with "capacity_mode": "provisioned"`);
    return { mode: "on_demand" };
  }
  const p = provisioned_capacity ?? provisionedCapacitySchema.parse({});
  for (const kind of ["read", "write"] as const)
    if (p[`${kind}_min`] > p[`${kind}_max`])
      throw new Error(`${origin}: provisioned_capacity.${kind}_min is above ${kind}_max`);
  return { mode: "provisioned", ...p };
}

function issueList(issues: readonly { path: readonly PropertyKey[]; message: string }[]): string {
  return issues.map((i) => `${i.path.map(String).join(".")}: ${i.message}`).join("; ");
}

/** Reads `-c settings=FILE` (relative to the project root); no context means the defaults. */
export function settingsContext(context: (key: string) => unknown, projectRoot: string): DeploySettings {
  const value = context("settings");
  if (value === undefined || value === null) return deploySettings({});
  if (typeof value !== "string" || value.trim() === "")
    throw new Error("context settings must be the path of a JSON file");
  const file = path.resolve(projectRoot, value.trim());
  if (!existsSync(file)) throw new Error(`context settings: no such file ${file}`);
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, "utf8"));
  } catch (err) {
    throw new Error(`${file}: not valid JSON (${(err as Error).message})`);
  }
  return deploySettings(data, file);
}
