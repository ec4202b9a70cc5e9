/**
 * Crawl settings an ops team sets at deploy time: `-c settings=FILE`, a JSON object of the
 * STORYTRAIL_* variables `shared/config/crawl-settings.ts` reads (User-Agent, host delay, raw-sample
 * rate, LSH retention, canonical partners). Validated at synth, so a typo fails `cdk synth`, not the
 * first crawl; every function gets them as environment variables.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { crawlSettings, crawlSettingsSchema } from "../shared/config/crawl-settings";

/** Opens loopback and private addresses: for local runs against test sites, never for a deployment. */
const LOCAL_ONLY = "STORYTRAIL_ALLOW_PRIVATE_ADDRESSES";

export const DEPLOYABLE_SETTINGS = Object.keys(crawlSettingsSchema.shape).filter((k) => k !== LOCAL_ONLY);

export interface DeploySettings {
  /** Environment variables for every function. */
  readonly env: Readonly<Record<string, string>>;
  /** What the synth should warn about (the stack adds them as CDK warnings). */
  readonly warnings: readonly string[];
}

/** Validates a settings object as read from JSON; `origin` names it in errors. */
export function deploySettings(raw: unknown, origin = "settings"): DeploySettings {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw))
    throw new Error(`${origin}: expected an object of STORYTRAIL_* settings`);
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (key === LOCAL_ONLY)
      throw new Error(
        `${origin}: ${LOCAL_ONLY} is for local runs against test sites, never for a deployment`,
      );
    if (!DEPLOYABLE_SETTINGS.includes(key))
      throw new Error(`${origin}: unknown setting ${key} (known: ${DEPLOYABLE_SETTINGS.join(", ")})`);
    if (typeof value !== "string" && typeof value !== "number")
      throw new Error(`${origin}: ${key} must be a string or a number`);
    env[key] = String(value);
  }
  const parsed = crawlSettingsSchema.safeParse(env);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`${origin}: ${issues}`);
  }
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
  return { env, warnings };
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
