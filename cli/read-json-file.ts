/** Reads a JSON file the user named: every failure is an InputError naming the file (and line, column). */
import { readFileSync } from "node:fs";
import { jsonErrorPosition } from "../shared/config/json-error-position";
import { InputError } from "./input-error";

export function readJsonFile(path: string, what: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new InputError(`${what} ${path}: cannot read it (${code ?? String(err)})`);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    const at = jsonErrorPosition(text);
    const where = at ? ` at line ${at.line}, column ${at.column}` : "";
    const message = err instanceof Error ? err.message : String(err);
    throw new InputError(`${what} ${path}: not valid JSON${where} (${message.slice(0, 200)})`);
  }
}
