/**
 * The schedule settings of a synth, from CDK context. Sources are not among them: they are data in the
 * Sources table (`storytrail sources push FILE --stack NAME`), so the template's size and resource
 * count do not depend on how many there are. A `-c sources=FILE` from before is still validated (the
 * same parseSources, so a bad file fails here as before) and answered with what to run instead.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseCadence } from "../shared/discover/cadence";
import { parseSources, type Source, SourcesError } from "../shared/discover/sources";

/** Reads and validates a sources file; errors name the file. */
export function readSourcesFile(file: string): Source[] {
  if (!existsSync(file)) throw new Error(`context sources: no such file ${file}`);
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, "utf8"));
  } catch (err) {
    throw new Error(`${file}: not valid JSON (${(err as Error).message})`);
  }
  try {
    return parseSources(json);
  } catch (err) {
    if (err instanceof SourcesError) throw new Error(`${file}: ${err.message}`);
    throw err;
  }
}

export interface ScheduleContext {
  /** Per scheduled function, a cron overriding the topology's (context `<fn>Schedule`). */
  readonly schedules: Record<string, string>;
  /** Context `discoverSchedule`: the cadence of sources that name none (the dispatcher's default). */
  readonly defaultSourceSchedule?: string;
  /** Set when `-c sources=FILE` was given: the warning the synth prints (the file is not deployed). */
  readonly sourcesWarning?: string;
}

/** What to tell someone who passed `-c sources=FILE` (declared once: the app prints it, the docs quote it). */
function sourcesNotDeployed(file: string, count: number): string {
  return `-c sources=${file} (${count} sources) is not deployed with the stack any more: sources live in the Sources table. After \`cdk deploy\`, run \`storytrail sources push ${file} --stack <stack name>\` (docs/operations.md, "Migrating sources").`;
}

/**
 * Reads the schedule settings: `<fn>Schedule` for each scheduled function, `discoverSchedule` (the
 * default source cadence) and `sources` (validated, then only warned about; see sourcesNotDeployed).
 */
export function scheduleContext(
  context: (key: string) => unknown,
  scheduledFunctions: readonly string[],
  projectRoot: string,
): ScheduleContext {
  const text = (key: string): string | undefined => {
    const value = context(key);
    if (value === undefined || value === null) return undefined;
    if (typeof value !== "string" || value.trim() === "")
      throw new Error(`context ${key} must be a non-empty string`);
    return value.trim();
  };
  const schedules: Record<string, string> = {};
  for (const fn of scheduledFunctions) {
    const cron = text(`${fn}Schedule`);
    if (cron) schedules[fn] = cron;
  }
  const defaultSourceSchedule = text("discoverSchedule");
  if (defaultSourceSchedule) {
    try {
      parseCadence(defaultSourceSchedule);
    } catch (err) {
      throw new Error(`context discoverSchedule: ${(err as Error).message}`);
    }
  }
  const sources = text("sources");
  const sourcesWarning = sources
    ? sourcesNotDeployed(sources, readSourcesFile(path.resolve(projectRoot, sources)).length)
    : undefined;
  return {
    schedules,
    ...(defaultSourceSchedule ? { defaultSourceSchedule } : {}),
    ...(sourcesWarning ? { sourcesWarning } : {}),
  };
}
