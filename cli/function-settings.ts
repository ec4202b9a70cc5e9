/**
 * The functions' settings of a local run (`crawl`, `demo`), by one rule: every STORYTRAIL_* setting in
 * this process's environment reaches them (as `-c settings=FILE` does for a deployment), over the
 * command's defaults; what the command's flags fix overrides both. Validated here, so a malformed
 * setting stops the run before anything starts. An empty variable counts as unset.
 */
import { crawlSettingsSchema } from "../shared/config/crawl-settings";
import { InputError } from "./input-error";

export function functionSettings(
  env: Readonly<Record<string, string | undefined>>,
  defaults: Readonly<Record<string, string>>,
  fixed: Readonly<Record<string, string>> = {},
): Record<string, string> {
  const settings: Record<string, string> = { ...defaults };
  for (const name of Object.keys(crawlSettingsSchema.shape)) {
    const value = env[name];
    if (value !== undefined && value !== "") settings[name] = value;
  }
  Object.assign(settings, fixed);
  const parsed = crawlSettingsSchema.safeParse(settings);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    throw new InputError(`invalid setting in the environment: ${problems.join("; ")}`);
  }
  return settings;
}
