/**
 * The inputs of the discover schedules: sources grouped by their cron and split so that each
 * schedule's input stays under EventBridge Scheduler's 8 KB limit. Pure apart from readSourcesFile.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseSources, type Source, SourcesError } from "../shared/discover/sources";

export interface ScheduleInput {
  /** Schedule expression, e.g. "cron(0 5 * * ? *)". */
  readonly cron: string;
  /** Index of this chunk within its cron group (stable for a given sources file). */
  readonly chunk: number;
  /** The JSON the schedule passes to the function: `{"sources": [...]}`. */
  readonly input: { readonly sources: readonly Source[] };
}

/** Scheduler accepts up to 8192 characters of input; keep a margin for safety. */
export const MAX_SCHEDULE_INPUT_BYTES = 8000;

/**
 * Reads and validates the sources file (the discover function's own parseSources, so an invalid
 * source fails the synth, not the first scheduled run); a missing file means no sources (the stack
 * still deploys). Errors name the file.
 */
export function readSourcesFile(file: string): Source[] {
  if (!existsSync(file)) return [];
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

const bytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value), "utf8");

/**
 * Groups sources by `schedule` (default cron otherwise) and packs each group, in file order, into
 * chunks whose serialized input is at most `maxBytes`. No sources → one empty input on the default
 * cron, so the function is still scheduled. Groups come out sorted by cron for stable construct ids.
 */
export function scheduleInputs(
  sources: readonly Source[],
  defaultCron: string,
  maxBytes = MAX_SCHEDULE_INPUT_BYTES,
): ScheduleInput[] {
  if (sources.length === 0) return [{ cron: defaultCron, chunk: 0, input: { sources: [] } }];
  const groups = new Map<string, Source[]>();
  for (const source of sources) {
    const cron = source.schedule ?? defaultCron;
    const group = groups.get(cron);
    if (group) group.push(source);
    else groups.set(cron, [source]);
  }
  const emptyBytes = bytes({ sources: [] });
  const out: ScheduleInput[] = [];
  for (const cron of [...groups.keys()].sort()) {
    let chunk: Source[] = [];
    let size = emptyBytes;
    let index = 0;
    for (const source of groups.get(cron) ?? []) {
      const own = bytes(source);
      if (emptyBytes + own > maxBytes) {
        throw new Error(`source ${source.id} alone exceeds the ${maxBytes}-byte schedule input limit`);
      }
      // +1 for the comma between array elements.
      const added = chunk.length === 0 ? own : own + 1;
      if (size + added > maxBytes) {
        out.push({ cron, chunk: index++, input: { sources: chunk } });
        chunk = [];
        size = emptyBytes;
      }
      size += chunk.length === 0 ? own : own + 1;
      chunk.push(source);
    }
    out.push({ cron, chunk: index, input: { sources: chunk } });
  }
  return out;
}

export interface ScheduleContext {
  /** Per scheduled function, a cron overriding the topology's (context `<fn>Schedule`). */
  readonly schedules: Record<string, string>;
  /** The sources the sources-carrying function's schedules pass as input. */
  readonly sources: Source[];
}

/**
 * Reads the schedule settings from CDK context: `<fn>Schedule` for each scheduled function and
 * `sources` (a file path relative to the project root; default sources.example.json, if present).
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
  const explicit = text("sources");
  const file = path.resolve(projectRoot, explicit ?? "sources.example.json");
  if (explicit && !existsSync(file)) throw new Error(`context sources: no such file ${file}`);
  return { schedules, sources: readSourcesFile(file) };
}
